// `/account`: change the password, log out everywhere, personal API tokens (shown once when
// created), close the account. Logged-out visitors are sent to the log-in page.

import { h, id } from './dom';
import { t, pt, fmt, dateText } from './i18n';
import { accounts, type ApiToken } from './players-api';
import { currentUser, setUser } from './session';
import { navigate } from './router';
import { errorMessage, credentialsError } from './errors';

function passwordField(label: string, autocomplete: string, testid: string): { field: HTMLElement; input: HTMLInputElement } {
  const input = h('input', { type: 'password', id: id('pw'), autocomplete, dir: 'ltr', required: true, 'data-testid': testid });
  return { input, field: h('label', { class: 'field wide', for: input.id }, h('span', {}, label), input) };
}

/** A message line under a form: `ok` for success, else an error. */
function note(): { el: HTMLElement; show: (text: string, ok: boolean) => void } {
  const el = h('p', { role: 'status', hidden: true });
  return {
    el,
    show: (text, ok) => {
      el.textContent = text;
      el.className = ok ? 'ok' : 'error';
      el.hidden = false;
    },
  };
}

export function renderAccount(root: HTMLElement): () => void {
  const me = currentUser();
  if (!me) {
    queueMicrotask(() => navigate('/login', true));
    return () => {};
  }
  const d = t();
  const p = pt();

  // Password.
  const cur = passwordField(p.currentPassword, 'current-password', 'current-password');
  const next = passwordField(p.newPassword, 'new-password', 'new-password');
  const pwNote = note();
  const pwForm = h('form', { class: 'card' }, h('h2', {}, p.changePassword), cur.field, next.field, pwNote.el, h('button', { type: 'submit', 'data-testid': 'change-password' }, p.changePassword));
  pwForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      await accounts.changePassword(cur.input.value, next.input.value);
      cur.input.value = next.input.value = '';
      pwNote.show(p.passwordChanged, true);
    } catch (err) {
      pwNote.show(credentialsError(err), false);
    }
  });

  // Sessions.
  const sessions = h(
    'section',
    { class: 'card' },
    h('h2', {}, p.logOutEverywhere),
    h('p', { class: 'help' }, p.logOutEverywhereHelp),
    h(
      'button',
      {
        type: 'button',
        'data-testid': 'logout-everywhere',
        onclick: async () => {
          await accounts.logOutEverywhere().catch(() => undefined);
          setUser(null);
          navigate('/login');
        },
      },
      p.logOutEverywhere,
    ),
  );

  // Tokens: the secret is shown once, right after it is made.
  const tokenList = h('ul', { class: 'tokens', 'data-testid': 'tokens' });
  const fresh = h('div', { class: 'fresh-token', hidden: true, 'data-testid': 'fresh-token' });
  const tokNote = note();
  const descInput = h('input', { type: 'text', id: id('desc'), maxlength: 100, required: true, 'data-testid': 'token-description' });
  const showTokens = (list: ApiToken[]) => {
    tokenList.replaceChildren(
      ...(list.length
        ? list.map((tok) =>
            h(
              'li',
              { 'data-token-id': tok.id },
              h(
                'div',
                { class: 'token-info' },
                h('strong', {}, tok.description),
                h('span', { class: 'muted' }, `${p.created}: ${dateText(tok.created_at, true)}`),
                h('span', { class: 'muted' }, `${p.lastUsed}: ${tok.last_used_at ? dateText(tok.last_used_at, true) : p.never}`),
              ),
              h(
                'button',
                {
                  type: 'button',
                  class: 'small danger',
                  'data-testid': `revoke-${tok.id}`,
                  onclick: async () => {
                    try {
                      await accounts.revokeToken(tok.id);
                      await loadTokens();
                    } catch (err) {
                      tokNote.show(errorMessage(err), false);
                    }
                  },
                },
                p.revoke,
              ),
            ),
          )
        : [h('li', { class: 'empty' }, p.noTokens)]),
    );
  };
  const loadTokens = async () => {
    try {
      showTokens(await accounts.tokens());
    } catch (err) {
      tokNote.show(errorMessage(err), false);
    }
  };
  const tokForm = h(
    'form',
    { class: 'row wrap token-form' },
    h('label', { class: 'field grow', for: descInput.id }, h('span', {}, p.description), descInput),
    h('button', { type: 'submit', 'data-testid': 'create-token' }, p.createToken),
  );
  tokForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      const made = await accounts.createToken(descInput.value.trim());
      descInput.value = '';
      const secret = h('input', { type: 'text', readonly: true, value: made.token, dir: 'ltr', 'data-testid': 'token-value', onfocus: (ev: Event) => (ev.target as HTMLInputElement).select() });
      const copy = h(
        'button',
        {
          type: 'button',
          onclick: async () => {
            try {
              await navigator.clipboard.writeText(made.token);
            } catch {
              secret.select();
              document.execCommand?.('copy');
            }
            copy.textContent = p.copied;
          },
        },
        p.copy,
      );
      fresh.replaceChildren(h('p', {}, p.tokenOnce), h('div', { class: 'row' }, secret, copy));
      fresh.hidden = false;
      await loadTokens();
    } catch (err) {
      tokNote.show(errorMessage(err), false);
    }
  });
  const tokens = h('section', { class: 'card' }, h('h2', {}, p.apiTokens), h('p', { class: 'help' }, p.apiTokensHelp), tokForm, fresh, tokNote.el, tokenList);
  void loadTokens();

  // Closing: the password, then a second, explicit confirmation.
  const closePw = passwordField(p.password, 'current-password', 'close-password');
  const closeNote = note();
  const confirmRow = h('div', { class: 'row wrap', hidden: true });
  const closeBtn = h('button', { type: 'submit', class: 'danger', 'data-testid': 'close-account' }, p.closeAccount);
  const closeForm = h('form', { class: 'card danger-zone' }, h('h2', {}, p.closeAccount), h('p', { class: 'help' }, p.closeAccountHelp), closePw.field, closeNote.el, closeBtn, confirmRow);
  closeForm.addEventListener('submit', (e) => {
    e.preventDefault();
    if (!closePw.input.value) return;
    closeBtn.hidden = true;
    confirmRow.replaceChildren(
      h('span', { class: 'confirm' }, p.closeSure),
      h(
        'button',
        {
          type: 'button',
          class: 'danger',
          'data-testid': 'close-confirm',
          onclick: async () => {
            try {
              await accounts.close(closePw.input.value);
              setUser(null);
              navigate('/');
            } catch (err) {
              closeNote.show(credentialsError(err), false);
              closeBtn.hidden = false;
              confirmRow.hidden = true;
            }
          },
        },
        p.closeConfirm,
      ),
      h(
        'button',
        {
          type: 'button',
          onclick: () => {
            closeBtn.hidden = false;
            confirmRow.hidden = true;
          },
        },
        d.cancel,
      ),
    );
    confirmRow.hidden = false;
  });

  root.replaceChildren(
    h(
      'div',
      { class: 'account' },
      h('h1', { class: 'page-title' }, p.accountTitle, ' ', h('span', { class: 'muted', dir: 'ltr' }, me.username)),
      h('p', { class: 'muted' }, fmt(p.memberSince, { date: dateText(me.created_at) })),
      h('div', { class: 'account-grid' }, h('div', { class: 'stack' }, pwForm, sessions, closeForm), tokens),
    ),
  );
  return () => {};
}
