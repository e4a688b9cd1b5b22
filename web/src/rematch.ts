// After a game: offer a rematch, answer the opponent's offer, or go to the rematch once it
// started. The page does the requests; this only draws what the game's view says
// (`rematch`, `rematch_offer`).

import { h } from './dom';
import { t, pt } from './i18n';
import type { GameState, Seat } from './api';

export interface RematchActions {
  /** Offers, or accepts the opponent's offer (the same request). */
  offer: () => void;
  /** Declines the opponent's offer or withdraws one's own. */
  decline: () => void;
  open: (game: string) => void;
}

export function rematchBox(s: GameState, me: Seat | null, a: RematchActions): HTMLElement | null {
  if (s.status !== 'finished') return null;
  const d = t();
  const p = pt();
  if (s.rematch) {
    const next = s.rematch;
    return h('div', { class: 'row wrap' }, h('button', { type: 'button', class: 'primary', 'data-testid': 'go-rematch', onclick: () => a.open(next) }, `↻ ${p.goToRematch}`));
  }
  if (!me) return null;
  if (s.rematch_offer === me)
    return h(
      'div',
      { class: 'offer', 'data-testid': 'rematch-offered' },
      h('p', {}, p.rematchOffered),
      h('button', { type: 'button', 'data-testid': 'cancel-rematch', onclick: a.decline }, d.cancel),
    );
  if (s.rematch_offer)
    return h(
      'div',
      { class: 'offer', 'data-testid': 'rematch-offer' },
      h('p', {}, p.opponentRematch),
      h(
        'div',
        { class: 'row' },
        h('button', { type: 'button', class: 'primary', 'data-testid': 'accept-rematch', onclick: a.offer }, d.accept),
        h('button', { type: 'button', 'data-testid': 'decline-rematch', onclick: a.decline }, d.decline),
      ),
    );
  return h('div', { class: 'row wrap' }, h('button', { type: 'button', class: 'primary', 'data-testid': 'rematch', onclick: a.offer }, `↻ ${p.offerRematch}`));
}
