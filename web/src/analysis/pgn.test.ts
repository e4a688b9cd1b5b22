import { describe, expect, it } from 'vitest';
import { newTree, addMove, addLine, type TreeNode } from './tree';
import { writePgn, movetextTokens, wrap, plyOfFen, moveNumber, INITIAL_FEN_STANDARD } from './pgn';

// FENs are only carried by the tree; tests give each node a distinct placeholder.
const m = (uci: string, san: string) => ({ uci, san, fen: `after ${uci}` });

function italian(): TreeNode {
  const root = newTree(INITIAL_FEN_STANDARD);
  addLine(root, [], [m('e2e4', 'e4'), m('e7e5', 'e5'), m('g1f3', 'Nf3'), m('b8c6', 'Nc6'), m('f1c4', 'Bc4')]);
  return root;
}

describe('PGN with variations', () => {
  it('writes side lines in parentheses and the move number again after them', () => {
    const root = italian();
    addLine(root, ['e2e4'], [m('c7c5', 'c5'), m('g1f3', 'Nf3')]);
    addMove(root, ['e2e4', 'e7e5', 'g1f3'], m('d7d6', 'd6'));
    addMove(root, ['e2e4', 'e7e5'], m('f2f4', 'f4'));
    expect(wrap(movetextTokens(root))).toBe('1. e4 e5 (1... c5 2. Nf3) 2. Nf3 (2. f4) 2... Nc6 (2... d6) 3. Bc4');
  });

  it('writes the tags, the start position of a FEN and the result', () => {
    const fen = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3';
    const root = newTree(fen, plyOfFen(fen));
    addLine(root, [], [m('f1b5', 'Bb5'), m('a7a6', 'a6')]);
    const pgn = writePgn(root, { White: 'Anna "A" Nováková', Result: '1-0' }, false);
    expect(pgn).toBe(
      [
        '[Event "?"]',
        '[Site "?"]',
        '[Date "????.??.??"]',
        '[Round "?"]',
        '[White "Anna \\"A\\" Nováková"]',
        '[Black "?"]',
        '[Result "1-0"]',
        `[FEN "${fen}"]`,
        '[SetUp "1"]',
        '',
        '3. Bb5 a6 1-0',
        '',
      ].join('\n'),
    );
  });

  it('starts a Black first move with its number and marks Chess960', () => {
    const fen = 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR b HFhf - 1 9';
    const root = newTree(fen, plyOfFen(fen));
    addMove(root, [], m('g8h8', 'Kh8'));
    const pgn = writePgn(root, {}, true);
    expect(pgn).toContain('[Variant "Chess960"]');
    expect(pgn.trim().endsWith('9... Kh8 *')).toBe(true);
    expect(moveNumber(plyOfFen(fen) + 1)).toBe('9...');
  });

  it('wraps long movetext at 80 columns', () => {
    const root = newTree(INITIAL_FEN_STANDARD);
    const moves = Array.from({ length: 60 }, (_, i) => m(`m${i}`, i % 2 ? 'Nf6' : 'Nf3'));
    addLine(root, [], moves);
    const text = wrap(movetextTokens(root));
    expect(text.split('\n').length).toBeGreaterThan(2);
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });
});
