// The move list of the analysis board, as lichess lays it out: the main line in rows of
// "number, White's move, Black's move"; a main move's alternatives right after it, one side line
// a line, indented, deeper side lines inline in parentheses.

import { h } from '../dom';
import type { TreeNode, Path } from './tree';
import { moveNumber } from './pgn';
import type { Mark } from './graph';

export const GLYPHS: Record<Mark, string> = { inaccuracy: '?!', mistake: '?', blunder: '??' };

export interface MoveListView {
  root: TreeNode;
  current: Path;
  /** The mark of the move leading to the node at a path (main line of an analysed game). */
  markOf: (path: Path) => Mark | null;
  /** A move's SAN as the user reads it (letters of the language, figurines). */
  sanText: (node: TreeNode) => string;
  label: string;
}

const key = (p: Path) => p.join(' ');

/** The path a move element stands for. */
export function pathOfElement(el: Element | null): Path | null {
  const m = el?.closest('[data-path]');
  if (!m) return null;
  const v = m.getAttribute('data-path') ?? '';
  return v ? v.split(' ') : [];
}

export function renderMoveList(v: MoveListView): HTMLElement {
  const current = key(v.current);
  const move = (node: TreeNode, path: Path, withNumber: boolean) => {
    const mark = v.markOf(path);
    return h(
      'span',
      {
        class: `an-move${key(path) === current ? ' active' : ''}${mark ? ` ${mark}` : ''}`,
        'data-path': key(path),
        'data-testid': 'an-move',
        role: 'button',
        tabindex: -1,
      },
      withNumber ? h('span', { class: 'an-num' }, moveNumber(node.ply)) : null,
      h('span', { class: 'an-san', dir: 'ltr' }, v.sanText(node)),
      mark ? h('span', { class: `an-glyph ${mark}` }, GLYPHS[mark]) : null,
    );
  };

  /** A side line inline: its moves, and deeper alternatives in parentheses. */
  const inline = (first: TreeNode, firstPath: Path): Node[] => {
    const out: Node[] = [move(first, firstPath, true)];
    let node = first;
    let path = firstPath;
    let force = false;
    while (node.children.length) {
      const [main, ...sides] = node.children;
      const mainPath = [...path, main.uci];
      out.push(move(main, mainPath, force || (main.ply - 1) % 2 === 0));
      for (const s of sides) out.push(h('span', { class: 'an-paren' }, '(', ...inline(s, [...path, s.uci]), ')'));
      force = sides.length > 0;
      node = main;
      path = mainPath;
    }
    return out;
  };

  const cells: Node[] = [];
  let col = 0; // 0: an index comes next, 1: White's cell, 2: Black's cell
  const filler = () => h('span', { class: 'an-move empty' }, '…');
  const index = (node: TreeNode) => h('span', { class: 'an-index' }, String(Math.floor((node.ply - 1) / 2) + 1));
  let node = v.root;
  let path: Path = [];
  while (node.children.length) {
    const [main, ...sides] = node.children;
    const mainPath = [...path, main.uci];
    const white = (main.ply - 1) % 2 === 0;
    if (white) {
      if (col === 2) cells.push(filler());
      cells.push(index(main), move(main, mainPath, false));
      col = 2;
    } else {
      if (col === 0) cells.push(index(main), filler());
      cells.push(move(main, mainPath, false));
      col = 0;
    }
    if (sides.length) {
      if (col === 2) cells.push(filler());
      col = 0;
      cells.push(
        h(
          'div',
          { class: 'an-variations' },
          sides.map((s) => h('div', { class: 'an-line' }, ...inline(s, [...path, s.uci]))),
        ),
      );
    }
    node = main;
    path = mainPath;
  }
  return h('div', { class: 'an-moves', 'data-testid': 'an-moves', role: 'group', 'aria-label': v.label }, cells);
}
