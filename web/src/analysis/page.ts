// The analysis board (issue 17): `/analysis` (the start position, `?fen=`, `?variant=chess960`
// with `&position=N`) and `/game/{id}/analysis` (the game as the main line). Free moves from any
// node grow the variation tree; the browser engine's lines, the server's computer analysis, the
// FEN and the PGN with variations sit beside the board.

import { Chessground } from 'chessground';
import type { Api as CgApi } from 'chessground/api';
import type { Key } from 'chessground/types';
import type { DrawShape } from 'chessground/draw';
import { api, seats, ApiError, type GameState } from '../api';
import { h } from '../dom';
import { colorName, digits, fmt, lang } from '../i18n';
import { navigate, spaLink } from '../router';
import { currentUser } from '../session';
import { seatOf } from '../ratings';
import { at } from './i18n';
import { readFen, fenOf, turnOf, inCheck, legalDests, needsPromotion, uciOfSquares, playUci, moveSquares, chess960Fen, sanInLang, INITIAL_FEN, type Pos, type Role, type Color } from './position';
import { newTree, addMove, nodeAt, nodesOf, validPath, mainlineFrom, promote, deleteAt, siblingPath, isMainline, toJson, fromJson, type TreeNode, type Path } from './tree';
import { writePgn, plyOfFen, moveNumber, type PgnTags } from './pgn';
import { renderMoveList, pathOfElement, GLYPHS } from './movelist';
import { EnginePanel } from './engine-panel';
import { ComputerPanel } from './computer';
import { renderGraph, type GraphPoint } from './graph';
import { openingOf, type ComputerAnalysis } from './server-api';
import { scoreText, whiteShare, type Score } from './score';

export interface AnalysisRoute {
  /** The game analysed, or null for the free board. */
  gameId: string | null;
  params: URLSearchParams;
}

/** What the board starts from. */
interface Start {
  fen: string;
  chess960: boolean;
  /** The game's moves (UCI), played as the main line. */
  moves: string[];
  game: GameState | null;
  tags: PgnTags;
  /** A bad `?fen=`: shown, and the board starts from the initial position instead. */
  fenError: string | null;
  orientation: Color;
  /** The Chess960 start position's number, when the board started from one. */
  chess960Number?: number;
}

const RUNNING = new Set(['waiting', 'playing', 'adjourned']);

export function renderAnalysis(root: HTMLElement, route: AnalysisRoute): () => void {
  const d = at();
  let dispose: (() => void) | null = null;
  let gone = false;
  document.title = `${d.analysisBoard} · Arbiter`;
  if (!route.gameId) {
    dispose = mount(root, freeStart(route.params));
    return () => dispose?.();
  }
  const id = route.gameId;
  root.replaceChildren(h('p', { class: 'muted' }, d.loading));
  void (async () => {
    try {
      const grant = seats.get(id);
      const g = await api.game(id, grant?.token);
      if (gone) return;
      const mine = grant?.seat ?? seatOf(g.players, currentUser()?.username);
      if (RUNNING.has(String(g.status)) && !g.imported && mine) {
        root.replaceChildren(
          h(
            'section',
            { class: 'card an-closed', 'data-testid': 'analysis-closed' },
            h('h1', {}, d.analysisBoard),
            h('p', {}, d.notWhilePlaying),
            spaLink(h('a', { class: 'button primary', href: `/game/${encodeURIComponent(id)}` }, d.backToGame)),
          ),
        );
        return;
      }
      const tags = await gameTags(id);
      if (gone) return;
      const fen = g.initial_fen || INITIAL_FEN;
      dispose = mount(root, {
        fen,
        chess960: g.variant === 'chess960',
        moves: g.moves.map((m) => m.uci),
        game: g,
        tags,
        fenError: null,
        orientation: mine ?? 'white',
      });
    } catch (e) {
      if (gone) return;
      root.replaceChildren(h('p', { class: 'an-note error', role: 'alert' }, e instanceof ApiError ? e.message : String(e)));
    }
  })();
  return () => {
    gone = true;
    dispose?.();
  };
}

/** The free board's start: `?fen=`, else `?variant=chess960` (`&position=N`, else a random
 * one), else the standard start. */
function freeStart(params: URLSearchParams): Start {
  const chess960 = params.get('variant') === 'chess960';
  const base: Start = { fen: INITIAL_FEN, chess960, moves: [], game: null, tags: {}, fenError: null, orientation: 'white' };
  const fen = params.get('fen');
  if (fen) {
    const r = readFen(fen, chess960);
    if ('error' in r) return { ...base, fenError: r.error, fen: chess960 ? chess960Fen(518) : INITIAL_FEN };
    return { ...base, fen: fenOf(r.pos) };
  }
  if (chess960) {
    const n = Number(params.get('position'));
    const number = Number.isInteger(n) && n >= 0 && n < 960 && params.get('position') !== null ? n : Math.floor(Math.random() * 960);
    return { ...base, fen: chess960Fen(number), chess960Number: number };
  }
  return base;
}

/** The tags of the game's own PGN (the server's export), except those the board writes. */
async function gameTags(id: string): Promise<PgnTags> {
  try {
    const res = await fetch(api.pgnUrl(id), { cache: 'no-store' });
    if (!res.ok) return {};
    const tags: PgnTags = {};
    for (const m of (await res.text()).matchAll(/^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$/gm)) {
      if (['FEN', 'SetUp', 'Variant', 'PlyCount'].includes(m[1])) continue;
      tags[m[1]] = m[2].replace(/\\(.)/g, '$1');
    }
    return tags;
  } catch {
    return {};
  }
}

function storageKey(start: Start): string {
  return `arbiter.analysis.${start.game ? `game.${start.game.id}` : 'board'}`;
}

function signature(start: Start): string {
  return [start.fen, start.chess960 ? '960' : 'std', ...start.moves].join('|');
}

/** Builds the page for a start and wires it; returns the clean-up. */
function mount(root: HTMLElement, start: Start): () => void {
  const d = at();
  const chess960 = start.chess960;
  const game = start.game;

  // ---- The tree: the game's moves as the main line, or a saved tree of this same start ----
  let tree: TreeNode = newTree(start.fen, plyOfFen(start.fen));
  let gameLine: Path = [];
  {
    let pos: Pos | null = (() => {
      const r = readFen(start.fen, chess960);
      return 'pos' in r ? r.pos : null;
    })();
    for (const uci of start.moves) {
      const played = pos && playUci(pos, uci, chess960);
      if (!played) break;
      gameLine = addMove(tree, gameLine, { uci: played.uci, san: played.san, fen: fenOf(played.pos) });
      pos = played.pos;
    }
  }
  let path: Path = [];
  try {
    const saved = JSON.parse(sessionStorage.getItem(storageKey(start)) ?? 'null') as { sig: string; tree: string; path: Path } | null;
    const savedTree = saved && saved.sig === signature(start) ? fromJson(saved.tree) : null;
    if (savedTree && saved) {
      tree = savedTree;
      path = validPath(tree, saved.path);
    }
  } catch {
    /* no storage: a fresh tree */
  }
  const save = () => {
    try {
      sessionStorage.setItem(storageKey(start), JSON.stringify({ sig: signature(start), tree: toJson(tree), path }));
    } catch {
      /* full or private: the tree lasts as long as the page */
    }
  };

  let orientation: Color = start.orientation;
  let analysis: ComputerAnalysis | null = null;
  let engineBest: { score: Score; uci: string | null } | null = null;

  // ---- Elements ----
  const boardEl = h('div', { class: 'an-cg', 'data-testid': 'board' });
  const promoEl = h('div', { class: 'promo', hidden: true });
  const barFill = h('div', { class: 'an-bar-white' });
  const evalBar = h('div', { class: 'an-bar', 'aria-hidden': 'true', 'data-testid': 'eval-bar' }, barFill);
  const movesBox = h('div', { class: 'an-moves-box' });
  const commentEl = h('p', { class: 'an-comment', 'data-testid': 'an-comment', 'aria-live': 'polite' });
  const openingEl = h('p', { class: 'an-opening', 'data-testid': 'an-opening' });
  const fenField = h('input', { type: 'text', readonly: true, class: 'an-fen', dir: 'ltr', 'data-testid': 'an-fen', 'aria-label': d.fen, spellcheck: 'false' });
  const pgnField = h('textarea', { readonly: true, class: 'an-pgn', dir: 'ltr', rows: 8, 'data-testid': 'an-pgn', 'aria-label': d.pgn, spellcheck: 'false' });
  const graphBox = h('div', { class: 'an-graph-box', hidden: true });
  const menuEl = h('div', { class: 'an-menu', role: 'menu', hidden: true, 'data-testid': 'move-menu' });

  const copyButton = (field: HTMLInputElement | HTMLTextAreaElement, testid: string) => {
    const b = h('button', { type: 'button', class: 'small', 'data-testid': testid }, d.copy);
    b.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(field.value);
      } catch {
        field.select();
        document.execCommand('copy');
      }
      b.textContent = d.copied;
      window.setTimeout(() => (b.textContent = d.copy), 1500);
    });
    return b;
  };

  // ---- The engine and the computer analysis ----
  const enginePanel = new EnginePanel(
    (ucis) => playLine(ucis),
    (score, uci) => {
      engineBest = score ? { score, uci } : null;
      drawBar();
      drawShapes();
    },
  );
  // A running game (watched by a spectator) has no computer analysis yet.
  const computer =
    game && (!RUNNING.has(String(game.status)) || game.imported)
    ? new ComputerPanel(game.id, String(game.status) === 'finished' || Boolean(game.imported), (a) => {
        analysis = a;
        update(false);
      })
    : null;

  // ---- The board ----
  const cg: CgApi = Chessground(boardEl, {
    coordinates: true,
    orientation,
    movable: { free: false, showDests: true, events: { after: (orig, dest) => onBoardMove(orig, dest) } },
    draggable: { enabled: true, showGhost: true },
    animation: { enabled: true, duration: 150 },
    highlight: { lastMove: true, check: true },
    premovable: { enabled: false },
    drawable: { enabled: true },
  });

  function currentNode(): TreeNode {
    return nodeAt(tree, path);
  }

  function currentPos(): Pos | null {
    const r = readFen(currentNode().fen, chess960);
    return 'pos' in r ? r.pos : null;
  }

  function onBoardMove(orig: Key, dest: Key): void {
    const pos = currentPos();
    if (!pos) return;
    if (needsPromotion(pos, orig, dest)) {
      choosePromotion(turnOf(pos), (role) => {
        if (role) playSquares(pos, orig, dest, role);
        else update(false);
      });
      return;
    }
    playSquares(pos, orig, dest, undefined);
  }

  function playSquares(pos: Pos, orig: string, dest: string, role: Role | undefined): void {
    const uci = uciOfSquares(pos, orig, dest, role, chess960);
    if (!uci) return update(false);
    playLine([uci]);
  }

  /** Plays UCI moves from the current node (a board move, or an engine line up to a move). */
  function playLine(ucis: string[]): void {
    let pos = currentPos();
    let p = path;
    for (const uci of ucis) {
      const played = pos && playUci(pos, uci, chess960);
      if (!played) break;
      p = addMove(tree, p, { uci: played.uci, san: played.san, fen: fenOf(played.pos) });
      pos = played.pos;
    }
    go(p);
  }

  function choosePromotion(color: Color, done: (r: Role | null) => void): void {
    const fig: Record<string, string> = color === 'white' ? { queen: '♕', rook: '♖', bishop: '♗', knight: '♘' } : { queen: '♛', rook: '♜', bishop: '♝', knight: '♞' };
    const close = (r: Role | null) => {
      promoEl.hidden = true;
      promoEl.replaceChildren();
      done(r);
    };
    promoEl.replaceChildren(
      h(
        'div',
        { class: 'row' },
        (['queen', 'rook', 'bishop', 'knight'] as Role[]).map((r) => h('button', { type: 'button', class: 'piece', 'data-role': r, onclick: () => close(r) }, fig[r])),
      ),
      h('button', { type: 'button', class: 'small', onclick: () => close(null) }, '✕'),
    );
    promoEl.hidden = false;
  }

  // ---- Marks of the computer analysis (on the game's line only) ----
  const onGameLine = (p: Path) => p.length <= gameLine.length && p.every((u, i) => gameLine[i] === u);
  const analysedMove = (p: Path) => (analysis && p.length > 0 && onGameLine(p) ? analysis.moves.find((m) => m.ply === p.length) ?? null : null);
  const analysedPosition = (p: Path) => (analysis && onGameLine(p) ? analysis.positions.find((x) => x.ply === p.length) ?? null : null);

  function drawShapes(): void {
    const shapes: DrawShape[] = [];
    const marked = analysedMove(path);
    if (marked?.mark && marked.better) {
      const sq = moveSquares(marked.better.uci);
      if (sq) shapes.push({ orig: sq[0] as Key, dest: sq[1] as Key, brush: 'green' });
    }
    const best = engineBest?.uci ? moveSquares(engineBest.uci) : undefined;
    if (best) shapes.push({ orig: best[0] as Key, dest: best[1] as Key, brush: 'paleBlue' });
    cg.setAutoShapes(shapes);
  }

  function drawBar(): void {
    const score = engineBest?.score ?? analysedPosition(path)?.eval ?? null;
    evalBar.classList.toggle('empty', !score);
    const share = score ? whiteShare(score) : 0.5;
    // White's part is at White's side of the board.
    barFill.style.height = `${(share * 100).toFixed(1)}%`;
    evalBar.classList.toggle('flipped', orientation === 'black');
    // Too narrow for text: the figure is a tooltip (and in the engine panel or the graph).
    evalBar.title = score ? scoreText(score) : '';
  }

  function drawGraph(): void {
    if (!analysis || !analysis.positions.length) {
      graphBox.hidden = true;
      return;
    }
    const nodes = nodesOf(tree, gameLine);
    const points: GraphPoint[] = analysis.positions.map((p) => {
      const move = analysis!.moves.find((m) => m.ply === p.ply);
      const node = nodes[p.ply];
      const label = move?.mark && node ? `${moveNumber(node.ply)} ${sanInLang(node.san, lang())}${GLYPHS[move.mark]} ${scoreText(p.eval)}` : undefined;
      return { ply: p.ply, score: p.eval, mark: move?.mark ?? null, label };
    });
    let common = 0;
    while (common < path.length && common < gameLine.length && path[common] === gameLine[common]) common++;
    graphBox.hidden = false;
    graphBox.replaceChildren(renderGraph(points, gameLine.length, common, d.evalGraph, (ply) => go(gameLine.slice(0, ply))));
  }

  let openingSeq = 0;
  function drawOpening(): void {
    const seq = ++openingSeq;
    if (chess960) {
      openingEl.textContent = '';
      return;
    }
    // The deepest named position on the way to this one (names stop within the first moves).
    const nodes = nodesOf(tree, path).slice(0, 41);
    void Promise.all(nodes.map((n) => openingOf(n.fen))).then((names) => {
      if (seq !== openingSeq) return;
      const named = names.filter((x) => x !== null).pop();
      openingEl.replaceChildren(...(named ? [h('span', { class: 'an-eco' }, named.eco), ' ', named.name] : []));
    });
  }

  function drawComment(): void {
    const m = analysedMove(path);
    if (!m?.mark) {
      commentEl.replaceChildren();
      return;
    }
    const label = { inaccuracy: d.inaccuracy, mistake: d.mistake, blunder: d.blunder }[m.mark];
    commentEl.replaceChildren(
      h('strong', { class: `an-glyph ${m.mark}` }, `${label} (${GLYPHS[m.mark]})`),
      m.better ? ` ${fmt(d.bestWas, { san: sanInLang(m.better.san, lang()) })}.` : '',
    );
  }

  // ---- Drawing everything for the current node ----
  function update(moved: boolean): void {
    const node = currentNode();
    const pos = currentPos();
    const turn: Color = pos ? turnOf(pos) : 'white';
    const dests = pos ? legalDests(pos, chess960) : new Map<string, string[]>();
    const last = node.uci ? moveSquares(node.uci) : undefined;
    cg.set({
      fen: node.fen,
      orientation,
      turnColor: turn,
      check: pos && inCheck(pos) ? turn : false,
      lastMove: last as Key[] | undefined,
      movable: { color: turn, dests: dests as Map<Key, Key[]> },
    });
    movesBox.replaceChildren(
      renderMoveList({
        root: tree,
        current: path,
        markOf: (p) => analysedMove(p)?.mark ?? null,
        sanText: (n) => sanInLang(n.san, lang()),
        label: d.moves,
      }),
    );
    const active = movesBox.querySelector<HTMLElement>('.an-move.active');
    const list = movesBox.firstElementChild as HTMLElement | null;
    if (list) {
      if (active) {
        const top = active.offsetTop - list.offsetTop;
        if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - active.offsetHeight) list.scrollTop = top - list.clientHeight / 2;
      } else list.scrollTop = 0;
    }
    fenField.value = node.fen;
    // The game's result stands while the main line is the game's moves.
    const main = mainlineFrom(tree, []);
    const result = game && main.length === gameLine.length && main.every((u, i) => gameLine[i] === u) ? (start.tags.Result ?? game.result ?? '*') : '*';
    pgnField.value = writePgn(tree, { ...start.tags, Result: result }, chess960);
    if (moved) enginePanel.setPosition({ fen: node.fen, chess960, over: dests.size === 0 });
    drawComment();
    drawShapes();
    drawBar();
    drawGraph();
    drawOpening();
    save();
  }

  function go(p: Path): void {
    closeMenu();
    path = validPath(tree, p);
    engineBest = null;
    update(true);
  }

  // ---- The move menu: promote, make main line, delete from here ----
  function openMenu(p: Path, x: number, y: number): void {
    if (!p.length) return;
    const nodes = nodesOf(tree, p);
    const parent = nodes[nodes.length - 2];
    const first = parent.children[0] === nodes[nodes.length - 1];
    const main = isMainline(tree, p);
    const item = (label: string, testid: string, enabled: boolean, f: () => void) =>
      h('button', { type: 'button', role: 'menuitem', disabled: !enabled, 'data-testid': testid, onclick: () => (f(), closeMenu()) }, label);
    menuEl.replaceChildren(
      item(d.promoteVariation, 'promote-variation', !first, () => {
        promote(tree, p, false);
        update(false);
      }),
      item(d.makeMainline, 'make-mainline', !main, () => {
        promote(tree, p, true);
        update(false);
      }),
      item(d.deleteFromHere, 'delete-from-here', true, () => {
        const isAncestor = p.every((u, i) => path[i] === u) && path.length >= p.length;
        const back = deleteAt(tree, p);
        if (isAncestor) go(back);
        else update(false);
      }),
    );
    menuEl.hidden = false;
    const w = 220;
    menuEl.style.left = `${Math.max(4, Math.min(x, window.innerWidth - w - 4))}px`;
    menuEl.style.top = `${Math.max(4, Math.min(y, window.innerHeight - 140))}px`;
    (menuEl.querySelector('button:not([disabled])') as HTMLButtonElement | null)?.focus();
  }

  function closeMenu(): void {
    menuEl.hidden = true;
  }

  movesBox.addEventListener('click', (e) => {
    const p = pathOfElement(e.target as Element);
    if (p) go(p);
  });
  movesBox.addEventListener('contextmenu', (e) => {
    const p = pathOfElement(e.target as Element);
    if (!p) return;
    e.preventDefault();
    openMenu(p, e.clientX, e.clientY);
  });

  // ---- Navigation ----
  const prev = () => go(path.slice(0, -1));
  const next = () => {
    const n = currentNode();
    if (n.children.length) go([...path, n.children[0].uci]);
  };
  const first = () => go([]);
  const lastMove = () => go(mainlineFrom(tree, path));
  const navButton = (label: string, title: string, testid: string, f: () => void) => h('button', { type: 'button', title, 'aria-label': title, 'data-testid': testid, onclick: f }, label);
  const menuButton = h('button', { type: 'button', title: d.moveMenu, 'aria-label': d.moveMenu, 'data-testid': 'move-menu-button' }, '⋮');
  menuButton.addEventListener('click', (e) => {
    e.stopPropagation();
    const box = menuButton.getBoundingClientRect();
    if (menuEl.hidden) openMenu(path, box.left, box.bottom + 4);
    else closeMenu();
  });
  const controls = h(
    'div',
    { class: 'an-controls', dir: 'ltr' },
    navButton('|◀', 'Home', 'nav-first', first),
    navButton('◀', '←', 'nav-prev', prev),
    navButton('▶', '→', 'nav-next', next),
    navButton('▶|', 'End', 'nav-last', lastMove),
    h('button', {
      type: 'button',
      title: d.flipBoard,
      'aria-label': d.flipBoard,
      'data-testid': 'flip',
      onclick: () => {
        orientation = orientation === 'white' ? 'black' : 'white';
        update(false);
      },
    }, '⇅'),
    menuButton,
  );

  const onKey = (e: KeyboardEvent) => {
    const tgt = e.target as HTMLElement | null;
    if (tgt && (tgt.closest('input, textarea, select, [contenteditable]') || e.altKey || e.ctrlKey || e.metaKey)) return;
    const keys: Record<string, () => void> = {
      ArrowLeft: prev,
      ArrowRight: next,
      ArrowUp: () => go(siblingPath(tree, path, -1)),
      ArrowDown: () => go(siblingPath(tree, path, 1)),
      Home: first,
      End: lastMove,
      Escape: closeMenu,
    };
    const f = keys[e.key];
    if (f) {
      e.preventDefault();
      f();
    }
  };
  const onDocClick = (e: MouseEvent) => {
    if (!menuEl.hidden && !menuEl.contains(e.target as Node)) closeMenu();
  };
  let wheelAt = 0;
  boardEl.addEventListener(
    'wheel',
    (e) => {
      e.preventDefault();
      const now = performance.now();
      if (now - wheelAt < 60) return;
      wheelAt = now;
      if (e.deltaY > 0) next();
      else if (e.deltaY < 0) prev();
    },
    { passive: false },
  );
  document.addEventListener('keydown', onKey);
  document.addEventListener('click', onDocClick);
  const onResize = () => cg.redrawAll();
  window.addEventListener('resize', onResize);

  // ---- Loading a position ----
  const fenInput = h('input', { type: 'text', class: 'an-fen-input', dir: 'ltr', placeholder: INITIAL_FEN, 'data-testid': 'fen-input', 'aria-label': d.fen, spellcheck: 'false' });
  const fenError = h('p', { class: 'an-note error', role: 'alert', 'data-testid': 'fen-error', hidden: !start.fenError }, start.fenError ? fmt(d.badFen, { error: start.fenError }) : '');
  const loadFen = (e: Event) => {
    e.preventDefault();
    const r = readFen(fenInput.value, chess960);
    if ('error' in r) {
      fenError.textContent = fmt(d.badFen, { error: r.error });
      fenError.hidden = false;
      return;
    }
    const q = new URLSearchParams({ fen: fenOf(r.pos) });
    if (chess960) q.set('variant', 'chess960');
    navigate(`/analysis?${q.toString()}`);
  };
  const fenForm = h('form', { class: 'an-load', 'data-testid': 'fen-form' }, h('label', { class: 'an-field' }, h('span', {}, d.fen), fenInput), h('button', { type: 'submit' }, d.loadFen));
  fenForm.addEventListener('submit', loadFen);

  let variantBox: HTMLElement | null = null;
  if (!game) {
    const variant = h(
      'select',
      { 'data-testid': 'variant', 'aria-label': d.chess960 },
      h('option', { value: 'standard', selected: !chess960 }, d.standard),
      h('option', { value: 'chess960', selected: chess960 }, d.chess960),
    );
    const number = h('input', { type: 'number', min: 0, max: 959, class: 'an-number', 'data-testid': 'chess960-number', 'aria-label': d.positionNumber, placeholder: '518', value: start.chess960Number ?? '' });
    const open960 = (n: number) => navigate(`/analysis?variant=chess960&position=${n}`);
    variant.addEventListener('change', () => (variant.value === 'chess960' ? open960(Math.floor(Math.random() * 960)) : navigate('/analysis')));
    number.addEventListener('change', () => {
      const n = Number(number.value);
      if (Number.isInteger(n) && n >= 0 && n < 960) open960(n);
    });
    variantBox = h(
      'div',
      { class: 'an-variant' },
      variant,
      chess960 ? h('label', { class: 'an-field' }, h('span', {}, d.positionNumber), number) : null,
      chess960 ? h('button', { type: 'button', 'data-testid': 'chess960-random', onclick: () => open960(Math.floor(Math.random() * 960)) }, d.random) : null,
    );
  }

  // ---- The page ----
  const head = game ? gameHead(game, start) : h('h1', { class: 'an-title' }, d.analysisBoard);
  root.replaceChildren(
    h(
      'div',
      { class: 'analysis', 'data-testid': 'analysis' },
      head,
      h(
        'div',
        { class: 'an-layout' },
        h('div', { class: 'an-board-col' }, h('div', { class: 'an-board-row', dir: 'ltr' }, evalBar, h('div', { class: 'board-wrap an-board' }, boardEl, promoEl)), controls, graphBox),
        h(
          'aside',
          { class: 'an-side' },
          h('div', { class: 'card an-card' }, openingEl, enginePanel.el, movesBox, commentEl, h('p', { class: 'help an-keys' }, d.keysHelp)),
          computer ? h('div', { class: 'card an-card' }, computer.el) : null,
          h(
            'div',
            { class: 'card an-card an-tools' },
            h('div', { class: 'an-copy' }, h('label', { class: 'an-field' }, h('span', {}, d.fen), fenField), copyButton(fenField, 'copy-fen')),
            h('div', { class: 'an-copy' }, h('label', { class: 'an-field' }, h('span', {}, d.pgn), pgnField), copyButton(pgnField, 'copy-pgn')),
            variantBox,
            fenForm,
            fenError,
          ),
        ),
      ),
      menuEl,
    ),
  );
  update(true);

  return () => {
    document.removeEventListener('keydown', onKey);
    document.removeEventListener('click', onDocClick);
    window.removeEventListener('resize', onResize);
    enginePanel.dispose();
    computer?.dispose();
    cg.destroy();
  };
}

/** The game's players and result, and the way back to its page. */
function gameHead(g: GameState, start: Start): HTMLElement {
  const d = at();
  const name = (c: Color) => {
    const p = g.players?.[c];
    if (p?.name) return p.name;
    if (g.computer?.seat === c) return g.computer.name ?? g.computer.engine ?? `Computer ${g.computer.level ?? ''}`.trim();
    // An imported game's names are its PGN tags; anonymous players here are their colour.
    const tag = g.imported ? start.tags[c === 'white' ? 'White' : 'Black'] : undefined;
    return tag && tag !== '?' ? tag : colorName(c);
  };
  const result = g.result ?? start.tags.Result ?? '*';
  return h(
    'div',
    { class: 'an-head' },
    h('h1', { class: 'an-title' }, d.analysisBoard),
    h(
      'p',
      { class: 'an-players', 'data-testid': 'an-players' },
      h('span', { class: 'an-player', dir: 'auto' }, `○ ${name('white')}`),
      h('span', { class: 'an-result', dir: 'ltr', 'data-testid': 'an-result' }, digits(result === '*' ? '*' : result)),
      h('span', { class: 'an-player', dir: 'auto' }, `● ${name('black')}`),
    ),
    spaLink(h('a', { class: 'button small', href: `/game/${encodeURIComponent(g.id)}`, 'data-testid': 'back-to-game' }, `${lang() === 'fa' ? '→' : '←'} ${d.backToGame}`)),
  );
}
