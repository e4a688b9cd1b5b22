import { describe, expect, it } from 'vitest';
import { newTree, addMove, addLine, nodeAt, promote, deleteAt, mainlineFrom, isMainline, siblingPath, validPath, toJson, fromJson, type TreeNode } from './tree';
import { INITIAL_FEN_STANDARD } from './pgn';

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
