import { describe, expect, it } from 'vitest';
import { ratingText, diffText, diffTrend, seatOf, fromSideOf, inRange, pageCount, sameName } from './ratings';
import { applyLobbyMessage, startedGame, EMPTY_LOBBY } from './lobby-state';
import { routeOf } from './router';
import type { GameListItem, Player, Seek, Pool } from './players-api';
import { PLAYERS_DICTS } from './i18n-players';

const player = (name: string, extra: Partial<Player> = {}): Player => ({ name, rating: 1500, provisional: true, rating_diff: null, closed: false, ...extra });

describe('rating display', () => {
  it('provisional_ratings_carry_a_question_mark', () => {
    expect(ratingText(1500, true)).toBe('1500?');
    expect(ratingText(1712.6, false)).toBe('1713');
    expect(ratingText(null, true)).toBe('');
  });
  it('rating_changes_are_signed_with_a_real_minus', () => {
    expect(diffText(12)).toBe('+12');
    expect(diffText(-12)).toBe('\u221212');
    expect(diffText(0)).toBe('±0');
    expect(diffText(null)).toBe('');
    expect(diffTrend(-3)).toBe('down');
    expect(diffTrend(5)).toBe('up');
    expect(diffTrend(0)).toBe('same');
  });
});

describe('seats and outcomes', () => {
  const players = { white: player('Alice'), black: player('bob') };
  it('an_account_finds_its_seat_whatever_the_case_of_its_name', () => {
    expect(seatOf(players, 'alice')).toBe('white');
    expect(seatOf(players, 'BOB')).toBe('black');
    expect(seatOf(players, 'carol')).toBeNull();
    expect(seatOf({ white: null, black: null }, 'alice')).toBeNull();
    expect(sameName('', '')).toBe(false);
  });
  it('a_profile_row_is_seen_from_its_owner', () => {
    const g: GameListItem = {
      id: 'g1', created_at: 0, time_control: '5+3', variant: 'standard', speed: 'blitz', rated: true,
      status: 'finished', result: '0-1', termination: 'checkmate', players,
    };
    expect(fromSideOf(g, 'bob')).toMatchObject({ seat: 'black', outcome: 'win', opponent: { name: 'Alice' } });
    expect(fromSideOf(g, 'alice')).toMatchObject({ seat: 'white', outcome: 'loss', opponent: { name: 'bob' } });
    expect(fromSideOf({ ...g, result: '1/2-1/2' }, 'alice').outcome).toBe('draw');
    expect(fromSideOf({ ...g, players: { white: players.white, black: null } }, 'alice').opponent).toBeNull();
  });
  it('seek_ranges_leave_out_missing_bounds', () => {
    expect(inRange(1500, 1400, 1600)).toBe(true);
    expect(inRange(1500, 1600, null)).toBe(false);
    expect(inRange(1500, null, 1499)).toBe(false);
    expect(inRange(1500, null, null)).toBe(true);
  });
  it('page_count_is_at_least_one', () => {
    expect(pageCount(0, 20)).toBe(1);
    expect(pageCount(20, 20)).toBe(1);
    expect(pageCount(21, 20)).toBe(2);
  });
});

describe('lobby state', () => {
  const seek = (id: string): Seek => ({
    id, username: 'alice', rating: 1500, provisional: true, time_control: '5+3', variant: 'standard', speed: 'blitz',
    rated: true, color: 'random', rating_min: null, rating_max: null, created_at: 0,
  });
  const pool = (id: string, waiting: number): Pool => ({ id, time_control: id, speed: 'blitz', waiting });
  it('the_first_message_replaces_everything', () => {
    const s = applyLobbyMessage({ seeks: [seek('old')], pools: [] }, { type: 'lobby', seeks: [seek('a')], pools: [pool('5+3', 1)] });
    expect(s.seeks.map((x) => x.id)).toEqual(['a']);
    expect(s.pools[0].waiting).toBe(1);
  });
  it('added_seeks_come_first_and_are_not_doubled', () => {
    let s = applyLobbyMessage(EMPTY_LOBBY, { type: 'seek_added', seek: seek('a') });
    s = applyLobbyMessage(s, { type: 'seek_added', seek: seek('b') });
    s = applyLobbyMessage(s, { type: 'seek_added', seek: seek('a') });
    expect(s.seeks.map((x) => x.id)).toEqual(['a', 'b']);
  });
  it('removed_seeks_go_and_pools_are_replaced', () => {
    let s = applyLobbyMessage(EMPTY_LOBBY, { type: 'lobby', seeks: [seek('a'), seek('b')], pools: [pool('1+0', 0)] });
    s = applyLobbyMessage(s, { type: 'seek_removed', id: 'a' });
    expect(s.seeks.map((x) => x.id)).toEqual(['b']);
    s = applyLobbyMessage(s, { type: 'pools', pools: [pool('1+0', 2), pool('3+0', 1)] });
    expect(s.pools.map((p) => p.waiting)).toEqual([2, 1]);
  });
  it('other_messages_change_nothing', () => {
    const s = { seeks: [seek('a')], pools: [] };
    expect(applyLobbyMessage(s, { type: 'game_started', game: 'g' })).toBe(s);
    expect(applyLobbyMessage(s, { type: 'seek_added' })).toBe(s);
    expect(startedGame({ type: 'game_started', game: 'g7' })).toBe('g7');
    expect(startedGame({ type: 'seek_removed', id: 'x' })).toBeNull();
  });
});

describe('routes', () => {
  it('profiles_and_players_pages_are_recognised', () => {
    expect(routeOf('/@/alice', '')).toMatchObject({ page: 'profile', name: 'alice' });
    expect(routeOf('/@/a%2Db', '?page=2')).toMatchObject({ page: 'profile', name: 'a-b' });
    expect(routeOf('/signup', '').page).toBe('signup');
    expect(routeOf('/login/', '').page).toBe('login');
    expect(routeOf('/account', '').page).toBe('account');
    expect(routeOf('/leaderboard', '?speed=bullet').page).toBe('leaderboard');
    expect(routeOf('/game/abc', '')).toEqual({ page: 'game', id: 'abc' });
    expect(routeOf('/', '').page).toBe('lobby');
  });
});

describe('players translations', () => {
  it('every_language_has_every_word_and_they_are_translated', () => {
    const keys = (o: object): string[] =>
      Object.entries(o).flatMap(([k, v]) => (typeof v === 'object' ? keys(v).map((x) => `${k}.${x}`) : [k])).sort();
    const en = PLAYERS_DICTS.en;
    for (const l of ['cs', 'sk', 'fa'] as const) {
      const d = PLAYERS_DICTS[l];
      expect(keys(d)).toEqual(keys(en));
      // Words that are the same in every language (RD, Bullet…) are few; most must differ.
      const same = Object.keys(en).filter((k) => typeof en[k as keyof typeof en] === 'string' && en[k as keyof typeof en] === d[k as keyof typeof d]);
      expect(same.length).toBeLessThan(4);
    }
  });
});
