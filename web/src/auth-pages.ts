// `/signup` and `/login`: one form, two endpoints. The server checks everything (username
// rules, password length, attempts); its answer is shown by error code.

import { h, id } from './dom';
import { pt } from './i18n';
import { accounts } from './players-api';
import { setUser } from './session';
import { navigate, spaLink } from './router';
import { credentialsError } from './errors';

export function renderAuth(root: HTMLElement, kind: 'signup' | 'login'): () => void {
  const p = pt();
  const signUp = kind === 'signup';
  const user = h('input', {
    type: 'text',
    id: id('user'),
    name: 'username',
    autocomplete: 'username',
    autocapitalize: 'off',
    spellcheck: 'false',
    dir: 'ltr',
    required: true,
    maxlength: 20,
    'data-testid': 'username',
  });
  const pass = h('input', {
    type: 'password',
    id: id('pass'),
    name: 'password',
    autocomplete: signUp ? 'new-password' : 'current-password',
    dir: 'ltr',
    required: true,
    'data-testid': 'password',
  });
  const errorBox = h('p', { class: 'error', role: 'alert', 'data-testid': 'auth-error', hidden: true });
  const submit = h('button', { type: 'submit', class: 'primary', 'data-testid': 'auth-submit' }, signUp ? p.signUp : p.logIn);
  const form = h(
    'form',
    { class: 'card auth', 'aria-labelledby': 'auth-title' },
    h('h2', { id: 'auth-title' }, signUp ? p.signUpTitle : p.logInTitle),
    h('label', { class: 'field wide', for: user.id }, h('span', {}, p.username), user, signUp ? h('small', { class: 'help' }, p.usernameHelp) : null),
    h('label', { class: 'field wide', for: pass.id }, h('span', {}, p.password), pass, signUp ? h('small', { class: 'help' }, p.passwordHelp) : null),
    errorBox,
    submit,
    h(
      'p',
      { class: 'switch' },
      signUp ? p.haveAccount : p.noAccount,
      ' ',
      spaLink(h('a', { href: signUp ? '/login' : '/signup', 'data-testid': 'auth-switch' }, signUp ? p.logIn : p.signUp)),
    ),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    errorBox.hidden = true;
    submit.disabled = true;
    try {
      const name = user.value.trim();
      const me = signUp ? await accounts.signUp(name, pass.value) : await accounts.logIn(name, pass.value);
      setUser(me);
      navigate('/');
    } catch (err) {
      errorBox.textContent = credentialsError(err);
      errorBox.hidden = false;
      submit.disabled = false;
      pass.select();
    }
  });
  root.replaceChildren(h('div', { class: 'narrow' }, form));
  user.focus();
  return () => {};
}
