// The evaluation graph of a computer analysis: White's winning chance at each ply (up: White
// is better), the marked moves as dots coloured by severity, the current ply as a line. A click
// or a hover over the graph goes to that ply.

import { winningChance, type Score } from './score';

export type Mark = 'inaccuracy' | 'mistake' | 'blunder';

export const GRAPH_WIDTH = 600;
export const GRAPH_HEIGHT = 100;

/** The x of ply `ply` of `plies` (0..plies), spread over the width. */
export function xOfPly(ply: number, plies: number, width = GRAPH_WIDTH): number {
  return plies <= 0 ? 0 : (ply / plies) * width;
}

/** The y of an evaluation: White's winning chance +1 at the top, −1 at the bottom. */
export function yOfScore(s: Score, height = GRAPH_HEIGHT): number {
  return ((1 - winningChance(s)) / 2) * height;
}

/** The ply nearest to an x position (for clicks), within 0..plies. */
export function plyOfX(x: number, plies: number, width = GRAPH_WIDTH): number {
  if (plies <= 0) return 0;
  return Math.max(0, Math.min(plies, Math.round((x / width) * plies)));
}

const SVG = 'http://www.w3.org/2000/svg';

function el(tag: string, attrs: Record<string, string | number>): SVGElement {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/** One point of the graph: the evaluation of the position at `ply`, and the mark of the move
 * that led there. */
export interface GraphPoint {
  ply: number;
  score: Score;
  mark: Mark | null;
  /** Shown on hover over a mark, e.g. "12... Qd7?? −3.10". */
  label?: string;
}

/** Draws the graph; `plies` is the game's number of half-moves (the x range). */
export function renderGraph(points: GraphPoint[], plies: number, current: number, label: string, onPly: (ply: number) => void): SVGSVGElement {
  const svg = el('svg', {
    viewBox: `0 0 ${GRAPH_WIDTH} ${GRAPH_HEIGHT}`,
    class: 'an-graph',
    role: 'img',
    'aria-label': label,
    'data-testid': 'eval-graph',
  }) as SVGSVGElement;
  // A mated position (mate 0) belongs to the side that mated: the sign of the point before.
  const sorted = [...points]
    .sort((a, b) => a.ply - b.ply)
    .map((p, i, all) => ('mate' in p.score && p.score.mate === 0 ? { ...p, score: { mate: i > 0 && winningChance(all[i - 1].score) < 0 ? -1 : 1 } } : p));
  const mid = GRAPH_HEIGHT / 2;
  if (sorted.length) {
    const line = sorted.map((p) => `${xOfPly(p.ply, plies).toFixed(1)},${yOfScore(p.score).toFixed(1)}`);
    const first = xOfPly(sorted[0].ply, plies).toFixed(1);
    const last = xOfPly(sorted[sorted.length - 1].ply, plies).toFixed(1);
    // White's area: below the curve down to the bottom edge.
    svg.appendChild(el('polygon', { class: 'an-graph-white', points: `${first},${GRAPH_HEIGHT} ${line.join(' ')} ${last},${GRAPH_HEIGHT}` }));
    svg.appendChild(el('polyline', { class: 'an-graph-line', points: line.join(' '), fill: 'none', 'vector-effect': 'non-scaling-stroke' }));
  }
  svg.appendChild(el('line', { class: 'an-graph-mid', x1: 0, y1: mid, x2: GRAPH_WIDTH, y2: mid, 'vector-effect': 'non-scaling-stroke' }));
  const cx = xOfPly(current, plies);
  svg.appendChild(el('line', { class: 'an-graph-cursor', x1: cx, y1: 0, x2: cx, y2: GRAPH_HEIGHT, 'vector-effect': 'non-scaling-stroke', 'data-testid': 'eval-graph-cursor' }));
  for (const p of sorted) {
    if (!p.mark) continue;
    const dot = el('circle', { class: `an-dot ${p.mark}`, cx: xOfPly(p.ply, plies), cy: yOfScore(p.score), r: 3.5, 'vector-effect': 'non-scaling-stroke', 'data-ply': p.ply, 'data-testid': 'eval-mark' });
    if (p.label) {
      const title = document.createElementNS(SVG, 'title');
      title.textContent = p.label;
      dot.appendChild(title);
    }
    svg.appendChild(dot);
  }
  const toPly = (e: MouseEvent) => {
    const box = svg.getBoundingClientRect();
    if (!box.width) return;
    // The graph runs left to right in every language (time goes that way on a chart).
    onPly(plyOfX(((e.clientX - box.left) / box.width) * GRAPH_WIDTH, plies));
  };
  svg.addEventListener('click', toPly);
  svg.addEventListener('mousemove', (e) => {
    if (e.buttons === 1) toPly(e);
  });
  return svg;
}
