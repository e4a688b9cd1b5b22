import { describe, expect, it } from 'vitest';
import { scoreText, winningChance } from './score';
import { chess960Fen } from './chess960';
import { xOfPly, yOfScore, plyOfX, GRAPH_WIDTH, GRAPH_HEIGHT } from './graph';

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
