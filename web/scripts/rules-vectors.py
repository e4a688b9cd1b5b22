"""Writes src/rules/vectors.json: legal moves (UCI, SAN), the FEN after each move and the
game-end facts of some positions, computed by python-chess, the oracle the web UI's tests
compare the WebAssembly rules core with (src/rules/rules.test.ts).

Usage (from web/):  ../.venv/bin/python scripts/rules-vectors.py > src/rules/vectors.json
"""

import json
import chess

POSITIONS = [
    # (name, FEN, chess960)
    ("start", chess.STARTING_FEN, False),
    ("kiwipete: castling both ways, checks", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", False),
    ("en passant legal", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", False),
    ("en passant pinned: written but not legal", "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1", False),
    ("promotions with and without capture", "1r2k3/P1P5/8/8/8/7p/8/4K1N1 w - - 0 1", False),
    ("black promotes with check", "4k3/8/8/8/8/8/5p2/3Q2NK b - - 0 1", False),
    ("in check: only evasions", "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1", False),
    ("checkmate", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", False),
    ("stalemate", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", False),
    ("insufficient material: K+B v K", "8/8/4k3/8/8/3B4/8/4K3 w - - 0 1", False),
    ("ambiguous knights and rooks", "4k3/8/8/8/R6R/8/8/1N2KN2 w - - 0 1", False),
    ("chess960: king b1, rook a1 beside it, rook h1 (queen side: king and rook swap-like)", "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1", True),
    ("chess960: king f1, rook g1, castling through", "rk5r/8/8/8/8/8/8/R4KR1 w GAha - 0 1", True),
    ("chess960: king g1, rook h1, queen side rook c1", "2r3kr/8/8/8/8/8/8/2R3KR w HChc - 0 1", True),
    ("chess960 start 0", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1", True),
]


def entry(name, fen, chess960):
    board = chess.Board(fen, chess960=chess960)
    moves = []
    for m in board.legal_moves:
        after = board.copy(stack=False)
        after.push(m)
        moves.append({
            "uci": board.uci(m, chess960=True),
            "uci_standard": board.uci(m, chess960=False),
            "san": board.san(m),
            "fen_after": after.fen(),
        })
    moves.sort(key=lambda x: x["uci"])
    return {
        "name": name,
        "fen": fen,
        "chess960": chess960,
        "fen_normalised": board.fen(),
        "check": board.is_check(),
        "checkmate": board.is_checkmate(),
        "stalemate": board.is_stalemate(),
        "insufficient_material": board.is_insufficient_material(),
        "moves": moves,
    }


print(json.dumps({
    "generator": "web/scripts/rules-vectors.py, python-chess " + chess.__version__,
    "positions": [entry(*p) for p in POSITIONS],
}, indent=1))
