#!/usr/bin/env python3
"""Random games with python-chess, written as JSON lines: the oracle for tests/differential.rs.

Every ply becomes one line holding the position before the move (FEN), its legal moves (UCI and
SAN), the rule facts python-chess computes for it, and the move played next (`null` at the end of
a game). The FEN of the next line is the FEN after the move.

The games are random but seeded (the same arguments give the same file), and steered so that the
rare rules come up often: castling (standard and Chess960), en passant, promotions (all four
pieces), repetitions (threefold claims, fivefold), long quiet stretches (fifty- and
seventy-five-move rules, also from positions whose halfmove clock is set near 100 or 150), bare
endgames (insufficient material), checkmate and stalemate.

Usage: gen_games.py --games N --seed S --out FILE [--jobs J]
"""

import argparse
import json
import multiprocessing
import random
import sys

import chess

# Style of a game and its weight: how often it is drawn.
STYLES = [
    ("random", 20),
    ("capture", 20),
    ("repeat", 25),
    ("clock", 16),
    ("endgame", 16),
    ("quiet", 3),
]


def termination_name(outcome):
    if outcome is None:
        return None
    return {
        chess.Termination.CHECKMATE: "checkmate",
        chess.Termination.STALEMATE: "stalemate",
        chess.Termination.INSUFFICIENT_MATERIAL: "insufficient_material",
        chess.Termination.SEVENTYFIVE_MOVES: "seventyfive_moves",
        chess.Termination.FIVEFOLD_REPETITION: "fivefold_repetition",
    }[outcome.termination]


def winner_name(outcome):
    if outcome is None or outcome.winner is None:
        return None
    return "white" if outcome.winner == chess.WHITE else "black"


def record(board, game_id, ply, chess960):
    legal = list(board.legal_moves)
    moves = [[board.uci(m), board.san(m)] for m in legal]
    outcome = board.outcome()
    rep3 = board.is_repetition(3)
    fifty = board.is_fifty_moves()
    claim3 = board.can_claim_threefold_repetition()
    claim50 = board.can_claim_fifty_moves()
    # When a claim is possible only with a move (Art. 9.2.1.1, 9.3.1): the moves that allow it.
    claim3_moves = []
    claim50_moves = []
    if (claim3 and not rep3) or (claim50 and not fifty):
        for m in legal:
            uci = board.uci(m)
            board.push(m)
            if claim3 and not rep3 and board.is_repetition(3):
                claim3_moves.append(uci)
            if claim50 and not fifty and board.is_fifty_moves():
                claim50_moves.append(uci)
            board.pop()
    return {
        "g": game_id,
        "ply": ply,
        "c960": chess960,
        "fen": board.fen(),
        "moves": moves,
        "check": board.is_check(),
        "mate": board.is_checkmate(),
        "stalemate": board.is_stalemate(),
        "insuf": board.is_insufficient_material(),
        "insuf_w": board.has_insufficient_material(chess.WHITE),
        "insuf_b": board.has_insufficient_material(chess.BLACK),
        "rep3": rep3,
        "rep5": board.is_fivefold_repetition(),
        "fifty": fifty,
        "seventyfive": board.is_seventyfive_moves(),
        "claim3": claim3,
        "claim50": claim50,
        "claim3_moves": claim3_moves,
        "claim50_moves": claim50_moves,
        "outcome": termination_name(outcome),
        "winner": winner_name(outcome),
    }


def pick(board, rng, style, seen):
    """Chooses the next move; `seen` counts the transposition keys met so far."""
    legal = list(board.legal_moves)
    # Rare rules first, whatever the style.
    eps = [m for m in legal if board.is_en_passant(m)]
    if eps and rng.random() < 0.6:
        return rng.choice(eps)
    castles = [m for m in legal if board.is_castling(m)]
    if castles and rng.random() < 0.5:
        return rng.choice(castles)
    promos = [m for m in legal if m.promotion]
    if promos and rng.random() < 0.7:
        return rng.choice(promos)
    # Double pushes next to an enemy pawn make en passant possible.
    if rng.random() < 0.3:
        doubles = []
        for m in legal:
            if board.piece_type_at(m.from_square) == chess.PAWN and abs(m.to_square - m.from_square) == 16:
                neighbours = [
                    sq
                    for sq in (m.to_square - 1, m.to_square + 1)
                    if 0 <= sq < 64 and abs(chess.square_file(sq) - chess.square_file(m.to_square)) == 1
                ]
                if any(board.piece_at(sq) == chess.Piece(chess.PAWN, not board.turn) for sq in neighbours):
                    doubles.append(m)
        if doubles:
            return rng.choice(doubles)

    if style in ("endgame", "capture", "random") and rng.random() < 0.5:
        # Mate in one when there is one, else sometimes a check.
        checks = [m for m in legal if board.gives_check(m)]
        for m in checks:
            board.push(m)
            mate = board.is_checkmate()
            board.pop()
            if mate:
                return m
        if checks and rng.random() < 0.3:
            return rng.choice(checks)
    if style == "endgame" and rng.random() < 0.7:
        # Stalemate when possible (rare in random play).
        for m in legal:
            board.push(m)
            stalemate = board.is_stalemate()
            board.pop()
            if stalemate:
                return m

    if style == "capture":
        caps = [m for m in legal if board.is_capture(m)]
        if caps and rng.random() < 0.8:
            return rng.choice(caps)
    elif style == "repeat":
        if rng.random() < 0.9:
            # Back to a position seen before, else undo our own last move (the opponent
            # undoing theirs then repeats the position of four plies ago).
            back = []
            for m in legal:
                if board.is_zeroing(m):
                    continue
                board.push(m)
                key = board._transposition_key()
                board.pop()
                if seen.get(key, 0) > 0:
                    back.append(m)
            if back:
                return rng.choice(back)
            if len(board.move_stack) >= 2:
                last = board.move_stack[-2]
                undo = chess.Move(last.to_square, last.from_square)
                if undo in legal and not board.is_zeroing(undo):
                    return undo
    elif style in ("quiet", "clock"):
        quiet = [m for m in legal if not board.is_zeroing(m)]
        if quiet and rng.random() < 0.97:
            # Prefer new positions so the stretch is not cut short by a fivefold repetition.
            fresh = []
            for m in quiet:
                board.push(m)
                key = board._transposition_key()
                board.pop()
                if seen.get(key, 0) == 0:
                    fresh.append(m)
            if fresh and rng.random() < 0.9:
                return rng.choice(fresh)
            return rng.choice(quiet)
    return rng.choice(legal)


def random_endgame(rng):
    """Two kings and up to three other pieces placed at random (a legal position)."""
    while True:
        board = chess.Board(None)
        squares = rng.sample(range(64), 5)
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for sq in squares[2 : 2 + rng.randrange(4)]:
            role = rng.choice([chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.BISHOP, chess.ROOK, chess.QUEEN])
            board.set_piece_at(sq, chess.Piece(role, rng.random() < 0.5))
        board.turn = rng.random() < 0.5
        board.halfmove_clock = rng.randrange(100)
        board.fullmove_number = rng.randrange(1, 80)
        if board.is_valid():
            return board


def start_board(rng, style):
    if style == "endgame":
        return random_endgame(rng), False
    chess960 = rng.random() < 0.35
    if chess960:
        board = chess.Board.from_chess960_pos(rng.randrange(960))
    else:
        board = chess.Board()
    if style == "clock":
        # Play an opening with captures, then restart from its FEN with a halfmove clock near
        # the fifty- or seventy-five-move limits.
        for _ in range(rng.randrange(10, 60)):
            if board.outcome() is not None:
                break
            board.push(pick(board, rng, "capture", {}))
        if board.outcome() is not None:
            return start_board(rng, "random")
        clock = rng.choice([rng.randrange(88, 100), rng.randrange(138, 150)])
        parts = board.fen().split(" ")
        parts[4] = str(clock)
        board = chess.Board(" ".join(parts), chess960=chess960)
    return board, chess960


def play_game(args):
    seed, game_id = args
    rng = random.Random(seed * 1_000_003 + game_id)
    style = rng.choices([s for s, _ in STYLES], [w for _, w in STYLES])[0]
    board, chess960 = start_board(rng, style)
    # Game lengths keep the whole run of 10,000 games within a few minutes.
    max_plies = {
        "random": rng.randrange(8, 32),
        "capture": rng.randrange(8, 48),
        "repeat": rng.randrange(12, 36),
        "clock": 64,
        "endgame": rng.randrange(4, 24),
        "quiet": 160,
    }[style]
    seen = {board._transposition_key(): 1}
    lines = []
    ply = 0
    while True:
        rec = record(board, game_id, ply, chess960)
        rec["style"] = style
        if rec["outcome"] is not None or ply >= max_plies:
            rec["played"] = None
            lines.append(json.dumps(rec, separators=(",", ":"), ensure_ascii=False))
            break
        m = pick(board, rng, style, seen)
        rec["played"] = board.uci(m)
        lines.append(json.dumps(rec, separators=(",", ":"), ensure_ascii=False))
        board.push(m)
        key = board._transposition_key()
        seen[key] = seen.get(key, 0) + 1
        ply += 1
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    ap.add_argument("--jobs", type=int, default=0, help="worker processes (0 = all cores)")
    args = ap.parse_args()
    jobs = args.jobs or multiprocessing.cpu_count()
    work = [(args.seed, g) for g in range(args.games)]
    with open(args.out, "w", encoding="utf-8") as out:
        if jobs == 1:
            for text in map(play_game, work):
                out.write(text)
        else:
            with multiprocessing.Pool(jobs) as pool:
                for text in pool.imap(play_game, work, chunksize=16):
                    out.write(text)
    print(f"wrote {args.games} games to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
