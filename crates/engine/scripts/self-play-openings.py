#!/usr/bin/env python3
"""Start positions for self-play matches (`arbiter-match --openings FILE`).

Reads PGN files and writes one FEN a line: the position after 8 to 12 plies (chosen at random,
seed 17) of each standard game that lasted at least ten plies longer, skipping positions in
check and repeats. Fixed-node games are deterministic, so a match needs as many distinct starts
as game pairs. The positions are not kept in the repository; this makes the 1,291 of
BENCHMARKS.md (from the TWIC 1599 and lichess games of ../shared/data/pgn/pgn-reader-benches,
in this order):

    B=../shared/data/pgn/pgn-reader-benches
    .venv/bin/python crates/engine/scripts/self-play-openings.py \
        $B/twic1599_1000k.pgn $B/lichess_db_1000k.pgn > openings.fen
"""
import random
import sys

import chess.pgn

random.seed(17)
seen = set()
out = []
for path in sys.argv[1:]:
    with open(path, encoding="utf-8", errors="replace") as fh:
        while True:
            game = chess.pgn.read_game(fh)
            if game is None:
                break
            if game.headers.get("Variant", "Standard") != "Standard" or game.headers.get("FEN"):
                continue
            board = game.board()
            moves = list(game.mainline_moves())
            n = random.choice([8, 9, 10, 11, 12])
            if len(moves) < n + 10:
                continue
            for m in moves[:n]:
                board.push(m)
            if board.is_check():
                continue
            key = board.board_fen() + (" w" if board.turn else " b")
            if key in seen:
                continue
            seen.add(key)
            out.append(board.fen())
random.shuffle(out)
print("\n".join(out))
