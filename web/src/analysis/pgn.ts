// The PGN of the analysis tree, with its variations in parentheses (PGN standard 8.2.5), in the
// export format: the seven-tag roster first, `SetUp`/`FEN` for another start, `Variant` for
// Chess960, lines of at most 80 characters.

import type { TreeNode } from './tree';

/** The half-move count a FEN starts at: (fullmove − 1) × 2, plus one when Black is to move. */
export function plyOfFen(fen: string): number {
  const f = fen.trim().split(/\s+/);
  const full = Math.max(1, Number(f[5]) || 1);
  return (full - 1) * 2 + (f[1] === 'b' ? 1 : 0);
}

/** The move number written before the move that leads to a node of ply `ply`, e.g. `3.` for
 * White's third move and `3...` for Black's. */
export function moveNumber(ply: number): string {
  const before = ply - 1;
  const n = Math.floor(before / 2) + 1;
  return before % 2 === 0 ? `${n}.` : `${n}...`;
}

function moveToken(node: TreeNode, forceNumber: boolean): string[] {
  const white = (node.ply - 1) % 2 === 0;
  return white || forceNumber ? [moveNumber(node.ply), node.san] : [node.san];
}

/** The movetext tokens after `node`: its main continuation, each side line in parentheses
 * right after the main move it replaces, and the move number again after a side line. */
export function movetextTokens(node: TreeNode, forceNumber = true): string[] {
  const out: string[] = [];
  let cur = node;
  let force = forceNumber;
  while (cur.children.length) {
    const [main, ...sides] = cur.children;
    out.push(...moveToken(main, force));
    for (const side of sides) {
      out.push('(', ...moveToken(side, true), ...movetextTokens(side, false), ')');
    }
    force = sides.length > 0;
    cur = main;
  }
  return out;
}

/** Joins tokens with spaces, except inside parentheses' edges, wrapped at 80 columns. */
export function wrap(tokens: string[], width = 80): string {
  const lines: string[] = [];
  let line = '';
  let glue = false; // no space after '('
  for (const tok of tokens) {
    const closing = tok === ')';
    const sep = line === '' || glue || closing ? '' : ' ';
    if (line !== '' && line.length + sep.length + tok.length > width) {
      lines.push(line);
      line = tok;
    } else line += sep + tok;
    glue = tok === '(';
  }
  if (line) lines.push(line);
  return lines.join('\n');
}

function tagValue(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

/** The tags of an analysis: the game's (or `?`s), and the start position when not standard. */
export interface PgnTags {
  [name: string]: string | undefined;
}

const ROSTER = ['Event', 'Site', 'Date', 'Round', 'White', 'Black', 'Result'];
export const INITIAL_FEN_STANDARD = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** The whole PGN: tags, a blank line, the movetext ending with the result. */
export function writePgn(root: TreeNode, tags: PgnTags, chess960: boolean): string {
  const all: PgnTags = { ...tags };
  const defaults: Record<string, string> = { Event: '?', Site: '?', Date: '????.??.??', Round: '?', White: '?', Black: '?', Result: '*' };
  for (const k of ROSTER) if (!all[k]) all[k] = defaults[k];
  if (chess960) all.Variant = 'Chess960';
  if (chess960 || root.fen !== INITIAL_FEN_STANDARD) {
    all.SetUp = '1';
    all.FEN = root.fen;
  }
  const names = [...ROSTER, ...Object.keys(all).filter((k) => !ROSTER.includes(k)).sort()];
  const head = names.filter((k) => all[k] !== undefined).map((k) => `[${k} "${tagValue(all[k] as string)}"]`);
  const body = wrap([...movetextTokens(root, true), all.Result as string]);
  return `${head.join('\n')}\n\n${body}\n`;
}
