import { describe, expect, it } from 'vitest';
import { Chess, makeUci } from './position';
import { dests, moveToUci, uciToMove } from '../chess';
import vectors from './vectors.json';

// The WebAssembly rules core against python-chess (vectors.json, made by
// scripts/rules-vectors.py): legal moves, SAN, the FEN after every move, game-end facts.

interface VectorMove {
  uci: string;
  uci_standard: string;
  san: string;
  fen_after: string;
}

const positionOf = (fen: string) => {
  const r = Chess.fromFen(fen);
  if ('error' in r) throw new Error(`${fen}: ${r.error}`);
  return r.pos;
};

describe('rules core against python-chess', () => {
  for (const v of vectors.positions) {
    describe(v.name, () => {
      const pos = positionOf(v.fen);
      it('legal_moves_and_san_agree', () => {
        const ours = pos
          .legalMoves()
          .map((x) => ({ uci: x.uci, uci_standard: x.uciStandard ?? x.uci, san: x.san }))
          .sort((a, b) => (a.uci < b.uci ? -1 : 1));
        const theirs = (v.moves as VectorMove[]).map(({ uci, uci_standard, san }) => ({
          uci,
          // Both write Chess960 castling king-takes-rook in either notation.
          uci_standard: v.chess960 ? uci : uci_standard,
          san,
        }));
        expect(ours).toEqual(theirs);
      });
      it('fen_after_every_move_agrees', () => {
        for (const m of v.moves as VectorMove[]) {
          const after = pos.clone();
          after.play(uciToMove(pos, m.uci)!);
          expect(after.fen, `${v.fen} ${m.uci}`).toBe(m.fen_after);
        }
      });
      it('fen_and_game_end_facts_agree', () => {
        expect(pos.fen).toBe(v.fen_normalised);
        expect(pos.isCheck()).toBe(v.check);
        expect(pos.isCheckmate()).toBe(v.checkmate);
        expect(pos.isStalemate()).toBe(v.stalemate);
        expect(pos.isInsufficientMaterial()).toBe(v.insufficient_material);
      });
    });
  }
});

describe('castling on the board', () => {
  it('standard_castling_offers_both_the_rook_and_the_two_square_destination', () => {
    const pos = positionOf('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1');
    expect(dests(pos, false).get('e1')).toEqual(expect.arrayContaining(['h1', 'g1', 'a1', 'c1']));
    expect(dests(pos, true).get('e1')).not.toContain('g1');
    const kingside = uciToMove(pos, 'e1g1')!;
    expect(makeUci(kingside)).toBe('e1h1');
    expect(moveToUci(pos, kingside, false)).toBe('e1g1');
    expect(moveToUci(pos, kingside, true)).toBe('e1h1');
  });
  it('guideline_ii_chess960_castling_is_king_takes_rook_only', () => {
    // King b1 beside its rook a1: "b1c1" would be an ordinary king move, so only b1a1 castles.
    const pos = positionOf('rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1');
    const m = uciToMove(pos, 'b1a1')!;
    expect(pos.san(m)).toBe('O-O-O');
    expect(moveToUci(pos, m, true)).toBe('b1a1');
    const after = pos.clone();
    after.play(m);
    expect(after.board.get(2)).toEqual({ role: 'king', color: 'white' }); // c1
    expect(after.board.get(3)).toEqual({ role: 'rook', color: 'white' }); // d1
  });
});

describe('bad input', () => {
  it('a_bad_fen_is_named_by_field_or_fault', () => {
    expect(Chess.fromFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1')).toEqual({ error: "field 2: expected 'w' or 'b', found 'x'" });
    expect(Chess.fromFen('8/8/8/8/8/8/8/K6K w - - 0 1')).toEqual({ error: expect.stringContaining('2 kings') });
  });
  it('exact_san_is_read_by_the_rules_core', () => {
    const pos = Chess.default();
    expect(pos.parseSan('Jf3', 'cs')).toMatchObject({ uci: 'g1f3', san: 'Nf3' });
    expect(pos.parseSan('Nf4')).toHaveProperty('error');
  });
  it('perft_counts_the_legal_move_tree', () => {
    expect(Chess.default().perft(3)).toBe(8902);
  });
});
