// The variation tree of the analysis board: every position reached, each move a child of the
// position it was played from; the first child is the main line. Pure data and functions (no
// DOM, no rules): positions come in as FEN, already checked by the caller.

/** One position of the tree and the move that led to it (none at the root). */
export interface TreeNode {
  /** Half-moves from the start of the game (the root's own ply may be above 0 for a FEN). */
  ply: number;
  /** The move that led here (UCI as the variant writes it), empty at the root. */
  uci: string;
  /** The same move in SAN (English letters), empty at the root. */
  san: string;
  /** The position after the move. */
  fen: string;
  /** Moves played from here; `children[0]` continues the main line (or the variation). */
  children: TreeNode[];
}

/** A node's place in the tree: the UCI of each move from the root (sibling moves differ, so
 * the path names one node and stays valid when variations are reordered). */
export type Path = string[];

export function newTree(fen: string, ply = 0): TreeNode {
  return { ply, uci: '', san: '', fen, children: [] };
}

/** The nodes from the root to `path` (the root first); stops where the path leaves the tree. */
export function nodesOf(root: TreeNode, path: Path): TreeNode[] {
  const out = [root];
  let node = root;
  for (const uci of path) {
    const next = node.children.find((c) => c.uci === uci);
    if (!next) break;
    out.push(next);
    node = next;
  }
  return out;
}

export function nodeAt(root: TreeNode, path: Path): TreeNode {
  const list = nodesOf(root, path);
  return list[list.length - 1];
}

/** The longest prefix of `path` that is in the tree. */
export function validPath(root: TreeNode, path: Path): Path {
  return nodesOf(root, path)
    .slice(1)
    .map((n) => n.uci);
}

/** Plays a move from the node at `path`: follows the child with that move if there is one,
 * else adds it as the last child (a new variation, or the main line if it is the first).
 * Returns the path of the child. */
export function addMove(root: TreeNode, path: Path, move: { uci: string; san: string; fen: string }): Path {
  const parent = nodeAt(root, path);
  const at = validPath(root, path);
  if (!parent.children.some((c) => c.uci === move.uci)) {
    parent.children.push({ ply: parent.ply + 1, uci: move.uci, san: move.san, fen: move.fen, children: [] });
  }
  return [...at, move.uci];
}

/** Adds a line of moves one after the other from `path` (e.g. a game's moves, or an engine
 * line); returns the path of the last. */
export function addLine(root: TreeNode, path: Path, moves: { uci: string; san: string; fen: string }[]): Path {
  let p = path;
  for (const m of moves) p = addMove(root, p, m);
  return p;
}

/** The main line from the node at `path` onwards (first children), the node itself excluded. */
export function mainlineFrom(root: TreeNode, path: Path): Path {
  const out = validPath(root, path);
  let node = nodeAt(root, out);
  while (node.children.length) {
    node = node.children[0];
    out.push(node.uci);
  }
  return out;
}

/** Whether the node at `path` is on the tree's main line. */
export function isMainline(root: TreeNode, path: Path): boolean {
  let node = root;
  for (const uci of path) {
    if (!node.children.length || node.children[0].uci !== uci) return false;
    node = node.children[0];
  }
  return true;
}

/** Promotes the variation holding the node at `path`. `toMainline`: every variation on the way
 * from the root becomes its parent's first child (the line becomes the main line); otherwise
 * only the nearest variation moves one step up (to first place among its siblings). */
export function promote(root: TreeNode, path: Path, toMainline: boolean): void {
  const nodes = nodesOf(root, path);
  for (let i = nodes.length - 1; i >= 1; i--) {
    const parent = nodes[i - 1];
    const child = nodes[i];
    const idx = parent.children.indexOf(child);
    if (idx > 0) {
      parent.children.splice(idx, 1);
      parent.children.unshift(child);
      if (!toMainline) return;
    }
  }
}

/** Deletes the node at `path` and everything after it; returns the path to show afterwards
 * (its parent). The root cannot be deleted. */
export function deleteAt(root: TreeNode, path: Path): Path {
  const at = validPath(root, path);
  if (!at.length) return at;
  const parentPath = at.slice(0, -1);
  const parent = nodeAt(root, parentPath);
  parent.children = parent.children.filter((c) => c.uci !== at[at.length - 1]);
  return parentPath;
}

/** Where ↑/↓ go: the previous/next sibling line of the node at `path` (wrapping not). */
export function siblingPath(root: TreeNode, path: Path, delta: -1 | 1): Path {
  const at = validPath(root, path);
  if (!at.length) return at;
  const parent = nodeAt(root, at.slice(0, -1));
  const idx = parent.children.findIndex((c) => c.uci === at[at.length - 1]);
  const next = parent.children[idx + delta];
  return next ? [...at.slice(0, -1), next.uci] : at;
}

/** Every node's path with the node, depth first in main-line order (for lookups by ply). */
export function* walk(root: TreeNode, path: Path = []): Generator<[Path, TreeNode]> {
  yield [path, nodeAt(root, path)];
  for (const c of nodeAt(root, path).children) yield* walk(root, [...path, c.uci]);
}

/** The tree as plain JSON (for sessionStorage) and back. */
export function toJson(root: TreeNode): string {
  return JSON.stringify(root);
}

export function fromJson(text: string): TreeNode | null {
  try {
    const v = JSON.parse(text) as TreeNode;
    const ok = (n: TreeNode): boolean =>
      typeof n === 'object' && n !== null && typeof n.fen === 'string' && typeof n.uci === 'string' && typeof n.san === 'string' && typeof n.ply === 'number' && Array.isArray(n.children) && n.children.every(ok);
    return ok(v) ? v : null;
  } catch {
    return null;
  }
}
