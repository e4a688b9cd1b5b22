// The top bar: the brand, the tournaments and the leaderboard, who is logged in (or the way to log in), the
// language switch, and under them the challenges sent to the logged-in player.

import { h } from './dom';
import { LANGS, LANG_NAMES, setLang, lang, t, pt, tt, type Lang } from './i18n';
import { navigate, profilePath, spaLink } from './router';
import { currentUser, logOut } from './session';
import { at } from './analysis/i18n';
import { it } from './i18n-import';
import { challengeStrip } from './challenge-ui';

const link = (href: string, attrs: Record<string, string>, ...text: (string | Node)[]) => spaLink(h('a', { href, ...attrs }, ...text));

export function header(onLangChange: () => void): HTMLElement {
  const d = t();
  const p = pt();
  const sel = h(
    'select',
    { id: 'lang', 'data-testid': 'lang', 'aria-label': d.language },
    LANGS.map((l) => h('option', { value: l, selected: l === lang(), lang: l }, LANG_NAMES[l])),
  );
  sel.addEventListener('change', () => {
    setLang(sel.value as Lang);
    onLangChange();
  });
  const me = currentUser();
  const user = me
    ? h(
        'div',
        { class: 'user', 'aria-label': p.userMenu, role: 'group' },
        link(profilePath(me.username), { class: 'me', 'data-testid': 'me', dir: 'ltr' }, h('span', { 'aria-hidden': 'true' }, '♟ '), me.username),
        link('/account', { class: 'button small', 'data-testid': 'account-link' }, p.account),
        h(
          'button',
          {
            type: 'button',
            class: 'small',
            'data-testid': 'logout',
            onclick: async () => {
              await logOut().catch(() => undefined);
              navigate('/');
            },
          },
          p.logOut,
        ),
      )
    : h(
        'div',
        { class: 'user' },
        link('/login', { class: 'button small', 'data-testid': 'login-link' }, p.logIn),
        link('/signup', { class: 'button small primary', 'data-testid': 'signup-link' }, p.signUp),
      );
  return h(
    'header',
    { class: 'top' },
    link('/', { class: 'brand' }, h('span', { class: 'logo', 'aria-hidden': 'true' }, '♞'), d.title),
    h('span', { class: 'tagline' }, d.tagline),
    h(
      'nav',
      { class: 'nav', 'aria-label': tt().sections },
      link('/tournaments', { 'data-testid': 'tournaments-link' }, tt().tournaments),
      link('/leaderboard', { 'data-testid': 'leaderboard-link' }, p.leaderboard),
      link('/import', { 'data-testid': 'import-link' }, it().importNav),
      link('/analysis', { 'data-testid': 'analysis-link' }, at().analysisBoard),
    ),
    user,
    h('label', { class: 'lang', for: 'lang' }, h('span', { class: 'lang-label' }, d.language), sel),
    // Challenges to me (and my own waiting ones), on every page.
    me ? challengeStrip() : null,
  );
}
