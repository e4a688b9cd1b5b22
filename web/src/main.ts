// Entry point: the header (language and notation switches) and the two pages.

import 'chessground/assets/chessground.base.css';
import 'chessground/assets/chessground.brown.css';
import 'chessground/assets/chessground.cburnett.css';
import './style.css';
import { h } from './dom';
import { LANGS, LANG_NAMES, detectLang, setLang, lang, t, type Lang } from './i18n';
import { currentRoute, navigate, setRouteHandler } from './router';
import { renderLobby } from './lobby';
import { renderGame } from './game';
import { liveRegion } from './feedback';

const app = document.getElementById('app')!;
let cleanup: (() => void) | null = null;

function header(): HTMLElement {
  const d = t();
  const sel = h(
    'select',
    { id: 'lang', 'data-testid': 'lang', 'aria-label': d.language },
    LANGS.map((l) => h('option', { value: l, selected: l === lang(), lang: l }, LANG_NAMES[l])),
  );
  sel.addEventListener('change', () => {
    setLang(sel.value as Lang);
    render();
  });
  return h(
    'header',
    { class: 'top' },
    h(
      'a',
      {
        href: '/',
        class: 'brand',
        onclick: (e: Event) => {
          e.preventDefault();
          navigate('/');
        },
      },
      h('span', { class: 'logo', 'aria-hidden': 'true' }, '♞'),
      d.title,
    ),
    h('span', { class: 'tagline' }, d.tagline),
    h('label', { class: 'lang', for: 'lang' }, h('span', { class: 'lang-label' }, d.language), sel),
  );
}

function render(): void {
  cleanup?.();
  cleanup = null;
  const main = h('main', { id: 'main' });
  app.replaceChildren(header(), main);
  liveRegion();
  const route = currentRoute();
  document.title = t().title;
  if (route.page === 'game') cleanup = renderGame(main, route.id);
  else cleanup = renderLobby(main, route.params);
}

setLang(detectLang());
setRouteHandler(render);
render();
