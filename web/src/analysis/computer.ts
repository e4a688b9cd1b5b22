// The computer-analysis panel of a game: request it (signed-in users), follow its progress in
// the server's queue, and once done the per-player summary and the PGN with evaluations.

import { h } from '../dom';
import { ApiError } from '../api';
import { digits, fmt, colorName, errorText } from '../i18n';
import { currentUser } from '../session';
import { at } from './i18n';
import { fetchAnalysis, requestAnalysis, evalsPgnUrl, type ComputerAnalysis } from './server-api';

const POLL_MS = 1000;

export class ComputerPanel {
  readonly el = h('section', { class: 'an-computer', 'data-testid': 'computer-panel' });
  private analysis: ComputerAnalysis | null = null;
  private error: string | null = null;
  private busy = false;
  private timer: number | undefined;
  private disposed = false;

  constructor(
    private gameId: string,
    /** The game is over (or imported): only then can it be analysed. */
    private finished: boolean,
    private onChange: (a: ComputerAnalysis | null) => void,
  ) {
    this.draw();
    void this.poll();
  }

  private async poll(): Promise<void> {
    window.clearTimeout(this.timer);
    try {
      this.analysis = await fetchAnalysis(this.gameId);
      this.error = null;
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    }
    if (this.disposed) return;
    this.onChange(this.analysis);
    this.draw();
    const s = this.analysis?.state;
    if (s === 'queued' || s === 'running') this.timer = window.setTimeout(() => void this.poll(), POLL_MS);
  }

  private async request(): Promise<void> {
    this.busy = true;
    this.error = null;
    this.draw();
    try {
      this.analysis = await requestAnalysis(this.gameId);
      this.onChange(this.analysis);
      void this.poll();
    } catch (e) {
      // 409 (not finished) and 429 (the limit) carry messages worth showing as they are.
      this.error = e instanceof ApiError ? errorText(e.code, e.message) : String(e);
    } finally {
      this.busy = false;
      this.draw();
    }
  }

  private draw(): void {
    const d = at();
    const a = this.analysis;
    const parts: (Node | null)[] = [h('h3', {}, d.computerAnalysis)];
    if (!a) {
      if (!this.finished) {
        // Nothing to offer until the game ends.
      } else if (currentUser()) {
        parts.push(
          h('button', { type: 'button', class: 'primary', disabled: this.busy, 'data-testid': 'request-analysis', onclick: () => void this.request() }, d.requestAnalysis),
        );
      } else parts.push(h('p', { class: 'an-note', 'data-testid': 'analysis-sign-in' }, d.signInToRequest));
    } else if (a.state === 'queued') {
      parts.push(h('p', { class: 'an-note', 'data-testid': 'analysis-progress' }, digits(fmt(d.queued, { n: String(a.queue_position ?? 0) }))));
    } else if (a.state === 'running') {
      const { done, total } = a.progress;
      parts.push(
        h('p', { class: 'an-note', 'data-testid': 'analysis-progress' }, digits(fmt(d.running, { done: String(done), total: String(total) }))),
        h('progress', { max: Math.max(1, total), value: done }),
      );
    } else if (a.state === 'failed') {
      parts.push(h('p', { class: 'an-note error' }, fmt(d.failed, { error: a.error ?? '' })));
    } else {
      const limit = typeof a.depth === 'number' ? fmt(d.depth, { n: String(a.depth) }) : typeof a.nodes === 'number' ? fmt(d.nodesLimit, { n: a.nodes.toLocaleString('en-GB') }) : '';
      parts.push(h('p', { class: 'an-note', 'data-testid': 'analysis-done' }, digits(fmt(limit ? d.analysedByLimit : d.analysedBy, { engine: a.engine, limit }))));
      if (a.summary) parts.push(this.summary(a));
      parts.push(h('a', { class: 'button small', href: evalsPgnUrl(this.gameId), download: `arbiter-${this.gameId}-analysis.pgn`, 'data-testid': 'evals-pgn' }, `↓ ${d.downloadEvals}`));
    }
    if (this.error) parts.push(h('p', { class: 'an-note error', role: 'alert', 'data-testid': 'analysis-error' }, this.error));
    this.el.replaceChildren(...parts.filter((x): x is Node => x !== null));
  }

  private summary(a: ComputerAnalysis): HTMLElement {
    const d = at();
    const s = a.summary!;
    const row = (label: string, cls: string, f: (p: typeof s.white) => string) =>
      h('tr', { class: cls }, h('th', { scope: 'row' }, label), h('td', {}, digits(f(s.white))), h('td', {}, digits(f(s.black))));
    return h(
      'table',
      { class: 'an-summary', 'data-testid': 'analysis-summary' },
      h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', { scope: 'col' }, colorName('white')), h('th', { scope: 'col' }, colorName('black')))),
      h(
        'tbody',
        {},
        row(d.inaccuracies, 'inaccuracy', (p) => String(p.inaccuracies)),
        row(d.mistakes, 'mistake', (p) => String(p.mistakes)),
        row(d.blunders, 'blunder', (p) => String(p.blunders)),
        row(d.acpl, '', (p) => String(Math.round(p.acpl))),
        row(d.accuracy, '', (p) => `${p.accuracy.toFixed(1)} %`),
      ),
    );
  }

  dispose(): void {
    this.disposed = true;
    window.clearTimeout(this.timer);
  }
}
