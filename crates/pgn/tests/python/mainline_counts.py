"""Per-file game counts and per-game main-line ply counts, as python-chess reads them.

Usage: python mainline_counts.py DIR
Prints one line per .pgn file under DIR (sorted by relative path):
    relative/path.pgn <TAB> games <TAB> plies,plies,...
Used by crates/pgn/tests/differential.rs (the python-chess differential test).
"""
import io
import logging
import os
import sys

import chess.pgn

logging.disable(logging.CRITICAL)


def counts(path):
    with open(path, "rb") as f:
        data = f.read()
    # The Rust reader decodes tags and comments lossily; python-chess needs text.
    text = data.decode("utf-8", errors="replace")
    handle = io.StringIO(text, newline=None)
    plies = []
    while True:
        game = chess.pgn.read_game(handle)
        if game is None:
            break
        plies.append(sum(1 for _ in game.mainline_moves()))
    return plies


def main():
    root = sys.argv[1]
    paths = []
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            if name.endswith(".pgn"):
                paths.append(os.path.relpath(os.path.join(dirpath, name), root))
    for rel in sorted(paths):
        plies = counts(os.path.join(root, rel))
        print(f"{rel}\t{len(plies)}\t{','.join(map(str, plies))}")


if __name__ == "__main__":
    main()
