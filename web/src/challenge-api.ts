// Challenges (lichess's API shapes) and game chat: the calls. The session cookie goes with
// every request; nothing here carries a token.

import { call } from './api';
import type { Challenge, ChallengeBody, ChatRoom, ChatView } from './challenge-logic';

const enc = encodeURIComponent;

export const challengeApi = {
  create: (username: string, body: ChallengeBody) => call<Challenge>('POST', `/api/challenge/${enc(username)}`, body),
  pending: () => call<{ in?: Challenge[]; out?: Challenge[] }>('GET', '/api/challenge'),
  accept: (id: string) => call<{ ok: boolean }>('POST', `/api/challenge/${enc(id)}/accept`, {}),
  decline: (id: string) => call<{ ok: boolean }>('POST', `/api/challenge/${enc(id)}/decline`, { reason: 'generic' }),
  cancel: (id: string) => call<{ ok: boolean }>('POST', `/api/challenge/${enc(id)}/cancel`, {}),
};

export const EVENT_STREAM_URL = '/api/stream/event';

export const chatApi = {
  view: (gameId: string) => call<ChatView>('GET', `/api/games/${enc(gameId)}/chat`),
  say: (gameId: string, room: ChatRoom, text: string) => call<{ ok: boolean }>('POST', `/api/games/${enc(gameId)}/chat`, { room, text }),
  streamUrl: (gameId: string) => `/api/games/${enc(gameId)}/chat/stream`,
};
