// PGN import (`/import`): paste or upload, `POST /api/imports`, then the games imported (links
// to their pages) and the games refused with their game number, line and column. And the page
// of an imported game (`/game/{id}` when the view says `imported`): players, event, date and
// result from the PGN's tags, the opening, the moves, the analysis board and the PGN.

import { h } from './dom';
import { renderGame } from './game';
import { navigate, spaLink } from './router';
import { fill, it } from './i18n-import';
import type { GameState } from './api';

interface ImportError {
  game: number;
  line: number;
  column: number;
  message: string;
}
interface ImportedGame {
  id: string;
  game: number;
  white: string;
  black: string;
  result: string;
  event?: string | null;
  date?: string | null;
  opening?: { eco: string; name: string } | null;
}

/** "C50 Italian Game", or '' when none is named. */
export function openingText(o: unknown): string {
  const op = o as { eco?: string; name?: string } | null | undefined;
  return op?.eco && op.name ? `${op.eco} ${op.name}` : '';
}

export function renderImport(root: HTMLElement): () => void {
  const d = it();
  // The page's few layout rules are inline: style.css is shared by every page.
  const area = h('textarea', { id: 'pgn-input', rows: 12, dir: 'ltr', spellcheck: 'false', 'data-testid': 'pgn-input', style: 'display:block;width:100%;box-sizing:border-box;font-family:monospace' });
  const file = h('input', { type: 'file', id: 'pgn-file', accept: '.pgn,text/plain,application/x-chess-pgn', 'data-testid': 'pgn-file' });
  const out = h('div', { class: 'import-results', 'data-testid': 'import-results', role: 'status' });
  const submit = h('button', { type: 'submit', 'data-testid': 'import-submit' }, d.importButton);
  file.addEventListener('change', () => {
    const f = file.files?.[0];
    if (f) void f.text().then((text) => (area.value = text));
  });
  const form = h(
    'form',
    { class: 'card import-form' },
    h('h1', {}, d.importTitle),
    h('p', { class: 'muted' }, d.importHelp),
    h('label', { for: 'pgn-input', style: 'display:block' }, d.pgnLabel),
    area,
    h('label', { for: 'pgn-file', style: 'display:block;margin-top:.5em' }, d.fileLabel),
    file,
    h('div', { class: 'row', style: 'margin-top:.5em' }, submit),
    out,
  );
  let stopped = false;
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    submit.disabled = true;
    void send(area.value).finally(() => (submit.disabled = false));
  });

  async function send(pgn: string): Promise<void> {
    const res = await fetch('/api/imports', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-chess-pgn', Accept: 'application/json' },
      body: pgn,
    });
    const data = (await res.json().catch(() => ({}))) as { imported?: ImportedGame[]; errors?: ImportError[]; message?: string };
    if (stopped) return;
    if (res.status === 413) {
      out.replaceChildren(h('p', { class: 'error', role: 'alert' }, d.tooLarge));
      return;
    }
    const imported = data.imported ?? [];
    const errors = data.errors ?? [];
    if (imported.length === 1 && errors.length === 0) {
      navigate(`/game/${encodeURIComponent(imported[0].id)}/analysis`);
      return;
    }
    out.replaceChildren(h('div', {},
      imported.length
        ? [
            h('h2', {}, d.imported),
            h(
              'ul',
              { 'data-testid': 'imported-list' },
              imported.map((g) =>
                h(
                  'li',
                  {},
                  spaLink(h('a', { href: `/game/${encodeURIComponent(g.id)}`, 'data-testid': `imported-${g.game}` }, `${g.white} – ${g.black}`)),
                  ' ',
                  h('span', { dir: 'ltr' }, g.result),
                  g.opening ? h('span', { class: 'muted' }, ` · ${openingText(g.opening)}`) : null,
                ),
              ),
            ),
          ]
        : null,
      errors.length
        ? [
            h('h2', {}, d.importErrors),
            h(
              'ul',
              { class: 'error', 'data-testid': 'import-errors' },
              errors.map((e) => h('li', {}, fill(d.errorAt, { game: e.game, line: e.line, column: e.column, message: e.message }))),
            ),
          ]
        : null,
      !imported.length && !errors.length && data.message ? h('p', { class: 'error', role: 'alert' }, data.message) : null,
    ));
  }

  root.replaceChildren(h('div', { class: 'import-page' }, form));
  return () => {
    stopped = true;
  };
}

/** The page of an imported game. */
function renderImported(root: HTMLElement, s: GameState): void {
  const d = it();
  const imp = (s.import ?? { tags: [], importer: null }) as { tags: [string, string][]; importer: string | null };
  const tag = (name: string) => imp.tags.find(([k]) => k === name)?.[1] ?? null;
  const field = (label: string, value: string | null) => (value && value !== '?' && !value.startsWith('????') ? h('div', {}, h('dt', {}, label), h('dd', { dir: 'auto' }, value)) : null);
  const moves = s.moves.map((m, i) => (i % 2 === 0 ? `${i / 2 + 1}. ${m.san}` : m.san)).join(' ');
  const opening = openingText(s.opening);
  root.replaceChildren(
    h(
      'div',
      { class: 'card imported-game', 'data-testid': 'imported-game' },
      h('p', { class: 'muted', 'data-testid': 'imported-mark' }, d.importedGame, imp.importer ? ` · ${fill(d.importedBy, { name: imp.importer })}` : ''),
      h('h1', { dir: 'auto' }, `${tag('White') ?? '?'} – ${tag('Black') ?? '?'}`, ' ', h('span', { dir: 'ltr' }, s.result ?? '*')),
      opening ? h('p', { class: 'opening', 'data-testid': 'opening' }, opening) : null,
      h('dl', { class: 'tags' }, field(d.event, tag('Event')), field(d.site, tag('Site')), field(d.date, tag('Date')), field(d.round, tag('Round'))),
      h('h2', {}, d.movesTitle),
      h('p', { class: 'moves-text', dir: 'ltr', 'data-testid': 'moves' }, moves),
      h(
        'p',
        { class: 'row' },
        spaLink(h('a', { href: `/game/${encodeURIComponent(s.id)}/analysis`, class: 'button', 'data-testid': 'analysis-link' }, d.analysisBoard)),
        ' ',
        h('a', { href: `/api/games/${encodeURIComponent(s.id)}/pgn`, download: `${s.id}.pgn` }, d.downloadPgn),
      ),
    ),
  );
}

/** `/game/{id}`: an imported game's page, or the game as played here. */
export function renderGameOrImported(root: HTMLElement, id: string): () => void {
  let cleanup: (() => void) | null = null;
  let stopped = false;
  fetch(`/api/games/${encodeURIComponent(id)}`, { cache: 'no-store' })
    .then((r) => (r.ok ? (r.json() as Promise<GameState>) : null))
    .catch(() => null)
    .then((s) => {
      if (stopped) return;
      if (s && s.imported === true) renderImported(root, s);
      else cleanup = renderGame(root, id);
    });
  return () => {
    stopped = true;
    cleanup?.();
  };
}
