// The engine panel: the browser engine's best lines for the position shown (depth, evaluation
// from White's side, the first moves in SAN; a click on a move plays the line up to it). Off
// until the user turns it on, as on lichess; the choice and the number of lines are remembered.

import { h } from '../dom';
import { digits, fmt, lang } from '../i18n';
import type { BrowserEngineApi, EngineReport } from '../engine/types';
import { at } from './i18n';
import { scoreText, type Score } from './score';
import { startEngine } from './engine-source';
import { sanInLang } from './position';

const ON_KEY = 'arbiter.analysis.engine';
const LINES_KEY = 'arbiter.analysis.lines';
/** How many moves of each line are shown. */
const SHOWN_MOVES = 10;

function stored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function store(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    /* private mode: remembered for this page only */
  }
}

export interface EngineTarget {
  fen: string;
  chess960: boolean;
  /** No legal move (mate or stalemate): nothing to search. */
  over: boolean;
}

export class EnginePanel {
  readonly el: HTMLElement;
  private enabled = stored(ON_KEY) === '1';
  private multiPv = Math.min(3, Math.max(1, Number(stored(LINES_KEY)) || 1));
  private engine: BrowserEngineApi | null = null;
  private starting: Promise<BrowserEngineApi | null> | null = null;
  private failed = false;
  private target: EngineTarget | null = null;
  private report: EngineReport | null = null;
  private body = h('div', { class: 'an-engine-body', 'aria-live': 'off' });

  constructor(
    /** Plays these UCI moves from the position shown. */
    private onPlay: (ucis: string[]) => void,
    /** The best line's score and first move changed (null: no engine output). */
    private onBest: (score: Score | null, firstUci: string | null) => void,
  ) {
    const d = at();
    const toggle = h('input', { type: 'checkbox', checked: this.enabled, 'data-testid': 'engine-toggle', role: 'switch' });
    toggle.addEventListener('change', () => this.setEnabled(toggle.checked));
    const lines = h(
      'select',
      { 'data-testid': 'engine-lines', 'aria-label': d.lines },
      [1, 2, 3].map((n) => h('option', { value: n, selected: n === this.multiPv }, digits(String(n)))),
    );
    lines.addEventListener('change', () => {
      this.multiPv = Number(lines.value);
      store(LINES_KEY, String(this.multiPv));
      this.restart();
    });
    this.el = h(
      'section',
      { class: 'an-engine', 'data-testid': 'engine-panel' },
      h(
        'div',
        { class: 'an-engine-head' },
        h('label', { class: 'an-switch', title: d.engineHelp }, toggle, h('span', {}, d.engine)),
        h('label', { class: 'an-lines' }, h('span', {}, d.lines), lines),
      ),
      this.body,
    );
    this.draw();
  }

  private setEnabled(on: boolean): void {
    this.enabled = on;
    store(ON_KEY, on ? '1' : '0');
    if (!on) {
      this.engine?.stop();
      this.report = null;
      this.onBest(null, null);
    }
    this.restart();
  }

  private async ensureEngine(): Promise<BrowserEngineApi | null> {
    if (this.engine) return this.engine;
    if (!this.starting) {
      this.starting = startEngine()
        .then(async (e) => {
          await e.ready();
          this.engine = e;
          return e;
        })
        .catch((err) => {
          console.warn('browser engine:', err);
          this.failed = true;
          this.draw();
          return null;
        });
    }
    return this.starting;
  }

  /** The position shown changed: the search restarts there. */
  setPosition(target: EngineTarget): void {
    this.target = target;
    this.restart();
  }

  private restart(): void {
    this.report = null;
    this.onBest(null, null);
    this.draw();
    const target = this.target;
    if (!this.enabled || !target) return;
    if (target.over) {
      this.engine?.stop();
      return;
    }
    void this.ensureEngine().then((engine) => {
      // Another position may have come meanwhile: only the latest is searched.
      if (!engine || !this.enabled || this.target !== target) return;
      engine.analyse(target.fen, { multiPv: this.multiPv, chess960: target.chess960 }, (r) => {
        if (this.target !== target || !this.enabled) return;
        this.report = r;
        const best = r.lines[0];
        this.onBest(best ? best.score : null, best?.pv[0] ?? null);
        this.draw();
      });
    });
  }

  private draw(): void {
    const d = at();
    if (!this.enabled) {
      this.body.replaceChildren();
      return;
    }
    if (this.failed) {
      this.body.replaceChildren(h('p', { class: 'an-note error' }, d.engineUnavailable));
      return;
    }
    if (this.target?.over) {
      this.body.replaceChildren(h('p', { class: 'an-note' }, d.gameOver));
      return;
    }
    const r = this.report;
    if (!r) {
      this.body.replaceChildren(h('p', { class: 'an-note', 'data-testid': 'engine-waiting' }, d.engineLoading));
      return;
    }
    const lines = r.lines.slice(0, this.multiPv).map((line) =>
      h(
        'div',
        { class: 'an-pv', 'data-testid': 'engine-line' },
        h('strong', { class: 'an-pv-score', dir: 'ltr' }, scoreText(line.score)),
        h(
          'span',
          { class: 'an-pv-moves', dir: 'ltr' },
          line.san.slice(0, SHOWN_MOVES).map((san, i) =>
            h('button', { type: 'button', class: 'an-pv-move', 'data-testid': 'engine-move', onclick: () => this.onPlay(line.pv.slice(0, i + 1)) }, sanInLang(san, lang())),
          ),
        ),
      ),
    );
    this.body.replaceChildren(
      h(
        'div',
        { class: 'an-engine-stats' },
        h('span', { 'data-testid': 'engine-depth' }, digits(fmt(d.depth, { n: String(r.depth) }))),
        h('span', {}, digits(fmt(d.kNodesPerSecond, { n: String(Math.round(r.nps / 1000)) }))),
      ),
      ...lines,
    );
  }

  dispose(): void {
    this.engine?.dispose();
    this.engine = null;
    void this.starting?.then((e) => e?.dispose());
  }
}
