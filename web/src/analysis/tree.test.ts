import { describe, expect, it } from 'vitest';
import { newTree, addMove, addLine, nodeAt, promote, deleteAt, mainlineFrom, isMainline, siblingPath, validPath, toJson, fromJson, type TreeNode } from './tree';
import { writePgn, movetextTokens, wrap, plyOfFen, moveNumber, INITIAL_FEN_STANDARD } from './pgn';
import { scoreText, winningChance } from './score';
import { chess960Fen } from './chess960';
import { xOfPly, yOfScore, plyOfX, GRAPH_WIDTH, GRAPH_HEIGHT } from './graph';

// FENs are only carried by the tree; tests give each node a distinct placeholder.
const m = (uci: string, san: string) => ({ uci, san, fen: `after ${uci}` });

function italian(): TreeNode {
  const root = newTree(INITIAL_FEN_STANDARD);
  addLine(root, [], [m('e2e4', 'e4'), m('e7e5', 'e5'), m('g1f3', 'Nf3'), m('b8c6', 'Nc6'), m('f1c4', 'Bc4')]);
  return root;
}

describe('variation tree', () => {
  it('adds a new move as a child and follows an existing one', () => {
    const root = italian();
    const p = addMove(root, ['e2e4'], m('c7c5', 'c5'));
    expect(p).toEqual(['e2e4', 'c7c5']);
    expect(nodeAt(root, ['e2e4']).children.map((c) => c.san)).toEqual(['e5', 'c5']);
    // Playing e5 again from the same place follows the main line, no duplicate.
    expect(addMove(root, ['e2e4'], m('e7e5', 'e5'))).toEqual(['e2e4', 'e7e5']);
    expect(nodeAt(root, ['e2e4']).children.length).toBe(2);
    expect(nodeAt(root, p).ply).toBe(2);
  });

  it('promotes a variation one level, or to the main line', () => {
    const root = italian();
    addMove(root, ['e2e4'], m('c7c5', 'c5'));
    const deep = addLine(root, ['e2e4', 'c7c5'], [m('g1f3', 'Nf3'), m('d7d6', 'd6')]);
    addMove(root, ['e2e4', 'c7c5', 'g1f3'], m('b8c6', 'Nc6'));
    // d6 is the main move after 2. Nf3 in the Sicilian; Nc6 a side line.
    const side = ['e2e4', 'c7c5', 'g1f3', 'b8c6'];
    expect(isMainline(root, side)).toBe(false);
    promote(root, side, false);
    // One level up: Nc6 first among its siblings, but the Sicilian is still a side line.
    expect(nodeAt(root, ['e2e4', 'c7c5', 'g1f3']).children[0].san).toBe('Nc6');
    expect(isMainline(root, side)).toBe(false);
    promote(root, deep, true);
    expect(isMainline(root, deep)).toBe(true);
    expect(mainlineFrom(root, []).map((u) => u)).toEqual(['e2e4', 'c7c5', 'g1f3', 'd7d6']);
  });

  it('deletes a node and what follows, and returns to its parent', () => {
    const root = italian();
    const back = deleteAt(root, ['e2e4', 'e7e5', 'g1f3']);
    expect(back).toEqual(['e2e4', 'e7e5']);
    expect(mainlineFrom(root, [])).toEqual(['e2e4', 'e7e5']);
    expect(deleteAt(root, [])).toEqual([]);
    expect(validPath(root, ['e2e4', 'e7e5', 'g1f3', 'b8c6'])).toEqual(['e2e4', 'e7e5']);
  });

  it('moves among sibling variations with ↑ and ↓', () => {
    const root = italian();
    addMove(root, ['e2e4'], m('c7c5', 'c5'));
    expect(siblingPath(root, ['e2e4', 'e7e5'], 1)).toEqual(['e2e4', 'c7c5']);
    expect(siblingPath(root, ['e2e4', 'c7c5'], -1)).toEqual(['e2e4', 'e7e5']);
    expect(siblingPath(root, ['e2e4', 'c7c5'], 1)).toEqual(['e2e4', 'c7c5']);
  });

  it('survives a JSON round trip and rejects junk', () => {
    const root = italian();
    expect(fromJson(toJson(root))).toEqual(root);
    expect(fromJson('{"fen": 3}')).toBeNull();
    expect(fromJson('not json')).toBeNull();
  });
});

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

describe('scores', () => {
  it('writes pawns and mates from White’s side', () => {
    expect(scoreText({ cp: 35 })).toBe('+0.35');
    expect(scoreText({ cp: -120 })).toBe('\u22121.20');
    expect(scoreText({ cp: 0 })).toBe('0.00');
    expect(scoreText({ mate: 3 })).toBe('#3');
    expect(scoreText({ mate: -2 })).toBe('\u2212#2');
  });
  it('maps an evaluation to a winning chance that is odd and saturates at mate', () => {
    expect(winningChance({ cp: 0 })).toBe(0);
    expect(winningChance({ cp: 300 })).toBeCloseTo(-winningChance({ cp: -300 }), 12);
    expect(winningChance({ cp: 300 })).toBeCloseTo(Math.tanh(0.00368208 * 150), 12); // 2/(1+e^-x)-1 = tanh(x/2)
    expect(winningChance({ mate: 1 })).toBe(1);
    expect(winningChance({ mate: -4 })).toBe(-1);
  });
});

describe('Chess960 start positions', () => {
  it('numbers the 960 positions as Scharnagl does', () => {
    expect(chess960Fen(518)).toBe('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    expect(chess960Fen(0).split('/')[7].split(' ')[0]).toBe('BBQNNRKR');
    expect(chess960Fen(959).split('/')[7].split(' ')[0]).toBe('RKRNNQBB');
    const all = new Set(Array.from({ length: 960 }, (_, n) => chess960Fen(n)));
    expect(all.size).toBe(960);
    for (const fen of all) {
      const rank = fen.split('/')[7].split(' ')[0];
      const [r1, k, r2] = [rank.indexOf('R'), rank.indexOf('K'), rank.lastIndexOf('R')];
      // The king between the rooks; bishops on squares of both colours.
      expect(r1 < k && k < r2).toBe(true);
      expect((rank.indexOf('B') + rank.lastIndexOf('B')) % 2).toBe(1);
    }
  });
});

describe('evaluation graph scale', () => {
  it('spreads the plies over the width and puts White’s advantage up', () => {
    expect(xOfPly(0, 80)).toBe(0);
    expect(xOfPly(80, 80)).toBe(GRAPH_WIDTH);
    expect(xOfPly(40, 80)).toBe(GRAPH_WIDTH / 2);
    expect(yOfScore({ cp: 0 })).toBe(GRAPH_HEIGHT / 2);
    expect(yOfScore({ mate: 2 })).toBe(0);
    expect(yOfScore({ mate: -2 })).toBe(GRAPH_HEIGHT);
    expect(yOfScore({ cp: 150 })).toBeLessThan(GRAPH_HEIGHT / 2);
    // Beyond ±10 pawns the curve is flat: a won position is not drawn off the chart.
    expect(yOfScore({ cp: 5000 })).toBe(yOfScore({ cp: 1000 }));
  });
  it('maps a click back to the nearest ply, within the game', () => {
    expect(plyOfX(0, 7)).toBe(0);
    expect(plyOfX((GRAPH_WIDTH * 4) / 7, 7)).toBe(4);
    expect(plyOfX(GRAPH_WIDTH * 2, 7)).toBe(7);
    expect(plyOfX(-5, 7)).toBe(0);
    expect(plyOfX(300, 0)).toBe(0);
  });
});
