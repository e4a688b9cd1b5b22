import { describe, expect, it } from 'vitest';
import { NdjsonDecoder, retryDelay } from './ndjson';
import {
  challengeBody,
  timeControlText,
  minutesText,
  speedOf,
  destColor,
  isOutgoing,
  applyStreamEvent,
  withPending,
  gameToOpen,
  mergeChat,
  chatLineOf,
  chatText,
  chatHiddenKey,
  EMPTY_CHALLENGES,
  type Challenge,
} from './challenge-logic';
import { CHALLENGE_DICTS } from './i18n-challenge';
import { LANGS } from './i18n';
import { call, ApiError } from './api';
import { errorMessage } from './errors';

const user = (name: string) => ({ id: name.toLowerCase(), name, rating: 1500, provisional: true });
const challenge = (id: string, from: string, to: string, extra: Partial<Challenge> = {}): Challenge => ({
  id,
  status: 'created',
  challenger: user(from),
  destUser: user(to),
  variant: { key: 'standard', name: 'Standard', short: 'Std' },
  rated: true,
  speed: 'blitz',
  timeControl: { type: 'clock', limit: 300, increment: 3, show: '5+3' },
  color: 'random',
  finalColor: 'white',
  ...extra,
});

describe('NDJSON stream', () => {
  it('objects_come_from_complete_lines_whatever_the_chunks', () => {
    const d = new NdjsonDecoder();
    expect(d.push('{"type":"chall')).toEqual([]);
    expect(d.push('enge","n":1}\n\n{"type":"gameSt')).toEqual([{ type: 'challenge', n: 1 }]);
    expect(d.push('art"}\n')).toEqual([{ type: 'gameStart' }]);
  });
  it('keep_alive_lines_and_junk_are_skipped', () => {
    const d = new NdjsonDecoder();
    expect(d.push('\n\n \r\n')).toEqual([]);
    expect(d.push('not json\n[1,2]\n42\nnull\n{"a":1}\r\n')).toEqual([{ a: 1 }]);
  });
  it('a_last_line_without_newline_counts_at_the_end', () => {
    const d = new NdjsonDecoder();
    expect(d.push('{"a":1}\n{"b":2}')).toEqual([{ a: 1 }]);
    expect(d.end()).toEqual([{ b: 2 }]);
    expect(d.end()).toEqual([]);
  });
  it('reconnection_waits_longer_after_each_failure_up_to_a_limit', () => {
    expect(retryDelay(0)).toBe(500);
    expect(retryDelay(1)).toBe(1000);
    expect(retryDelay(3)).toBe(4000);
    expect(retryDelay(20)).toBe(15000);
    expect(retryDelay(20, 30000)).toBe(30000);
  });
});

describe('challenge form', () => {
  const base = { color: 'random' as const, rated: true, variant: 'standard' as const };
  it('a_clock_is_sent_in_seconds', () => {
    expect(challengeBody({ kind: 'clock', minutes: 5, increment: 3, ...base })).toEqual({
      body: { 'clock.limit': 300, 'clock.increment': 3, color: 'random', rated: true, variant: 'standard' },
    });
    expect(challengeBody({ kind: 'clock', minutes: 0.5, increment: 0, ...base, color: 'white', rated: false, variant: 'chess960' })).toEqual({
      body: { 'clock.limit': 30, 'clock.increment': 0, color: 'white', rated: false, variant: 'chess960' },
    });
    expect(challengeBody({ kind: 'clock', minutes: 0, increment: 2, ...base })).toEqual({
      body: { 'clock.limit': 0, 'clock.increment': 2, color: 'random', rated: true, variant: 'standard' },
    });
  });
  it('correspondence_is_sent_as_days', () => {
    expect(challengeBody({ kind: 'correspondence', days: 3, ...base, color: 'black' })).toEqual({ body: { days: 3, color: 'black', rated: true, variant: 'standard' } });
  });
  it('impossible_time_controls_are_refused_before_sending', () => {
    expect(challengeBody({ kind: 'clock', minutes: 0, increment: 0, ...base })).toEqual({ error: 'zeroClock' });
    expect(challengeBody({ kind: 'clock', minutes: NaN, increment: 0, ...base })).toEqual({ error: 'badMinutes' });
    expect(challengeBody({ kind: 'clock', minutes: -1, increment: 0, ...base })).toEqual({ error: 'badMinutes' });
    expect(challengeBody({ kind: 'clock', minutes: 181, increment: 0, ...base })).toEqual({ error: 'badMinutes' });
    expect(challengeBody({ kind: 'clock', minutes: 5, increment: 1.5, ...base })).toEqual({ error: 'badIncrement' });
    expect(challengeBody({ kind: 'clock', minutes: 5, increment: 200, ...base })).toEqual({ error: 'badIncrement' });
    expect(challengeBody({ kind: 'correspondence', days: 0, ...base })).toEqual({ error: 'badDays' });
    expect(challengeBody({ kind: 'correspondence', days: 15, ...base })).toEqual({ error: 'badDays' });
  });
});

describe('time control display', () => {
  const en = CHALLENGE_DICTS.en.tc;
  it('clocks_read_minutes_plus_increment_with_lichess_fractions', () => {
    expect(timeControlText({ type: 'clock', limit: 300, increment: 3 }, en)).toBe('5+3');
    expect(timeControlText({ type: 'clock', limit: 30, increment: 0 }, en)).toBe('½+0');
    expect(timeControlText({ type: 'clock', limit: 15, increment: 0 }, en)).toBe('¼+0');
    expect(timeControlText({ type: 'clock', limit: 90, increment: 1 }, en)).toBe('1½+1');
    expect(minutesText(150)).toBe('2.5');
    expect(minutesText(5400)).toBe('90');
  });
  it('correspondence_and_unlimited_are_words_with_plurals', () => {
    expect(timeControlText({ type: 'correspondence', daysPerTurn: 1 }, en)).toBe('1 day per move');
    expect(timeControlText({ type: 'correspondence', daysPerTurn: 3 }, en)).toBe('3 days per move');
    expect(timeControlText({ type: 'correspondence', daysPerTurn: 3 }, CHALLENGE_DICTS.cs.tc, 'cs')).toBe('3 dny na tah');
    expect(timeControlText({ type: 'correspondence', daysPerTurn: 5 }, CHALLENGE_DICTS.cs.tc, 'cs')).toBe('5 dní na tah');
    expect(timeControlText({ type: 'correspondence', daysPerTurn: 1 }, CHALLENGE_DICTS.sk.tc, 'sk')).toBe('1 deň na ťah');
    expect(timeControlText({ type: 'correspondence', daysPerTurn: 2 }, CHALLENGE_DICTS.fa.tc, 'fa')).toBe('2 روز برای هر حرکت');
    expect(timeControlText({ type: 'unlimited' }, en)).toBe('Unlimited');
    expect(timeControlText(null, en)).toBe('Unlimited');
  });
  it('speeds_follow_lichess_estimate', () => {
    expect(speedOf({ type: 'clock', limit: 15, increment: 0 })).toBe('ultraBullet');
    expect(speedOf({ type: 'clock', limit: 60, increment: 0 })).toBe('bullet');
    expect(speedOf({ type: 'clock', limit: 180, increment: 2 })).toBe('blitz');
    expect(speedOf({ type: 'clock', limit: 600, increment: 5 })).toBe('rapid');
    expect(speedOf({ type: 'clock', limit: 900, increment: 10 })).toBe('rapid');
    expect(speedOf({ type: 'clock', limit: 1800, increment: 0 })).toBe('classical');
    expect(speedOf({ type: 'correspondence', daysPerTurn: 2 })).toBe('correspondence');
    expect(speedOf({ type: 'unlimited' })).toBeNull();
  });
});

describe('pending challenges from the event stream', () => {
  const c1 = challenge('c1', 'Alice', 'bob');
  it('the_challenged_player_gets_the_other_colour', () => {
    expect(destColor(c1)).toBe('black');
    expect(destColor({ ...c1, finalColor: undefined, color: 'black' })).toBe('white');
    expect(destColor({ ...c1, finalColor: undefined, color: 'random' })).toBeNull();
  });
  it('direction_comes_from_the_field_or_the_challenger', () => {
    expect(isOutgoing(c1, 'alice')).toBe(true);
    expect(isOutgoing(c1, 'BOB')).toBe(false);
    expect(isOutgoing({ ...c1, direction: 'in' }, 'alice')).toBe(false);
  });
  it('incoming_and_outgoing_challenges_come_and_go', () => {
    let s = applyStreamEvent(EMPTY_CHALLENGES, { type: 'challenge', challenge: c1 }, 'bob');
    expect(s.in.map((c) => c.id)).toEqual(['c1']);
    // The same challenge again (a reconnection) is not listed twice.
    s = applyStreamEvent(s, { type: 'challenge', challenge: c1 }, 'bob');
    expect(s.in).toHaveLength(1);
    s = applyStreamEvent(s, { type: 'challengeCanceled', challenge: c1 }, 'bob');
    expect(s.in).toEqual([]);
    const mine = applyStreamEvent(EMPTY_CHALLENGES, { type: 'challenge', challenge: c1 }, 'alice');
    expect(mine.out.map((c) => c.id)).toEqual(['c1']);
    expect(mine.in).toEqual([]);
  });
  it('a_declined_challenge_of_mine_is_kept_to_say_so', () => {
    let s = applyStreamEvent(EMPTY_CHALLENGES, { type: 'challenge', challenge: c1 }, 'alice');
    s = applyStreamEvent(s, { type: 'challengeDeclined', challenge: { ...c1, status: 'declined', declineReason: 'I am busy' } }, 'alice');
    expect(s.out).toEqual([]);
    expect(s.declined.map((c) => c.declineReason)).toEqual(['I am busy']);
    // Declined by me: nothing to say.
    let b = applyStreamEvent(EMPTY_CHALLENGES, { type: 'challenge', challenge: c1 }, 'bob');
    b = applyStreamEvent(b, { type: 'challengeDeclined', challenge: c1 }, 'bob');
    expect(b).toEqual(EMPTY_CHALLENGES);
  });
  it('a_started_game_ends_its_challenge_and_opens_only_when_awaited', () => {
    let s = applyStreamEvent(EMPTY_CHALLENGES, { type: 'challenge', challenge: c1 }, 'alice');
    const start = { type: 'gameStart', game: { gameId: 'c1', fullId: 'c1abcd', color: 'white', isMyTurn: true, source: 'friend' } };
    s = applyStreamEvent(s, start, 'alice');
    expect(s.out).toEqual([]);
    expect(gameToOpen(start, new Set(['c1']))).toBe('c1');
    expect(gameToOpen(start, new Set(['other']))).toBeNull();
    expect(gameToOpen({ type: 'gameFinish', game: { gameId: 'c1' } }, new Set(['c1']))).toBeNull();
  });
  it('unknown_events_and_bad_objects_change_nothing', () => {
    expect(applyStreamEvent(EMPTY_CHALLENGES, { type: 'gameFinish', game: { gameId: 'x' } }, 'a')).toBe(EMPTY_CHALLENGES);
    expect(applyStreamEvent(EMPTY_CHALLENGES, { type: 'challenge', challenge: { nope: 1 } }, 'a')).toBe(EMPTY_CHALLENGES);
    expect(applyStreamEvent(EMPTY_CHALLENGES, { type: 'challenge', challenge: challenge('c9', 'x', 'y', { status: 'accepted' }) }, 'y')).toBe(EMPTY_CHALLENGES);
  });
  it('the_pending_list_replaces_what_the_stream_said_but_keeps_declined_notices', () => {
    const declined = { ...EMPTY_CHALLENGES, declined: [challenge('d1', 'alice', 'carol')] };
    const s = withPending(declined, { in: [challenge('c2', 'dan', 'alice')], out: [c1] });
    expect(s.in.map((c) => c.id)).toEqual(['c2']);
    expect(s.out.map((c) => c.id)).toEqual(['c1']);
    expect(s.declined.map((c) => c.id)).toEqual(['d1']);
    expect(withPending(EMPTY_CHALLENGES, {})).toEqual(EMPTY_CHALLENGES);
  });
});

describe('chat', () => {
  const l = (at: number, username: string, text: string) => ({ at, username, text });
  it('lines_are_merged_in_time_order_once_each', () => {
    expect(mergeChat([l(1, 'a', 'hi'), l(3, 'b', 'yo')], [l(2, 'a', 'x'), l(3, 'b', 'yo')])).toEqual([l(1, 'a', 'hi'), l(2, 'a', 'x'), l(3, 'b', 'yo')]);
  });
  it('stream_objects_become_lines_of_a_room', () => {
    expect(chatLineOf({ type: 'chatLine', room: 'player', username: 'a', text: 'gl', at: 5 })).toEqual({ room: 'player', line: l(5, 'a', 'gl') });
    expect(chatLineOf({ type: 'chatLine', room: 'lobby', username: 'a', text: 'x', at: 5 })).toBeNull();
    expect(chatLineOf({ type: 'other' })).toBeNull();
  });
  it('what_may_be_sent_is_trimmed_and_at_most_140_characters', () => {
    expect(chatText('  good luck ')).toBe('good luck');
    expect(chatText('   ')).toBeNull();
    expect(chatText('x'.repeat(140))).toHaveLength(140);
    expect(chatText('x'.repeat(141))).toBeNull();
    // Characters, not UTF-16 units: 140 emoji fit.
    expect(chatText('♞'.repeat(140))).not.toBeNull();
  });
  it('hide_chat_is_remembered_per_user', () => {
    expect(chatHiddenKey('Alice')).toBe('arbiter.chat.hidden.alice');
    expect(chatHiddenKey(null)).toBe('arbiter.chat.hidden.');
  });
});

describe('errors', () => {
  const answer = (status: number, body: unknown) => async () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  it('lichess_errors_keep_their_text_and_code', async () => {
    const saved = globalThis.fetch;
    try {
      globalThis.fetch = answer(400, { error: "bob's account is closed", code: 'account_closed' }) as typeof fetch;
      const err = await call('POST', '/api/challenge/bob', {}).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).code).toBe('account_closed');
      expect((err as ApiError).message).toBe("bob's account is closed");
      // The native shape is read as before.
      globalThis.fetch = answer(403, { error: 'not_a_player', message: "only the players write in the players' room" }) as typeof fetch;
      const native = (await call('POST', '/api/games/x/chat', {}).catch((e: unknown) => e)) as ApiError;
      expect([native.code, native.message]).toEqual(['not_a_player', "only the players write in the players' room"]);
    } finally {
      globalThis.fetch = saved;
    }
  });
  it('known_codes_are_said_in_the_page_language_others_as_the_server_wrote_them', () => {
    expect(errorMessage(new ApiError(400, 'own_challenge', 'you cannot challenge yourself'))).toBe('You cannot challenge yourself.');
    expect(errorMessage(new ApiError(400, 'something_new', 'The server says why.'))).toBe('The server says why.');
    expect(errorMessage(new ApiError(400, 'constructor', 'odd code'))).toBe('odd code');
  });
});

describe('words', () => {
  it('every_language_has_every_word', () => {
    const keys = (o: object): string[] => Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' ? keys(v).map((x) => `${k}.${x}`) : [k]));
    const en = keys(CHALLENGE_DICTS.en).filter((k) => !k.startsWith('tc.daysPerMove.'));
    for (const lang of LANGS) {
      const have = keys(CHALLENGE_DICTS[lang]);
      for (const k of en) expect(have, `${lang}: ${k}`).toContain(k);
      expect(CHALLENGE_DICTS[lang].tc.daysPerMove.other).toContain('{n}');
    }
  });
});
