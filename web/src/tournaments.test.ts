import { describe, expect, it } from 'vitest';
import { resultText, pointsText, tiebreakText, splitTournaments, boardOf, crosstable, scoresOf, myNo, newGameFor, explanationLines, localInputToMs, playersChatOpen } from './tournament-logic';
import { routeOf, tournamentPath } from './router';
import { TOURNAMENTS_DICTS } from './i18n-tournaments';
import type { TRound, TournamentSummary } from './tournaments-api';

const round = (n: number, boards: [number, number, string | null, string | null][], byes: [number, string][] = []): TRound => ({
  round: n,
  paired_at: 0,
  complete: boards.every((b) => b[3] !== null),
  boards: boards.map(([white, black, game, result], i) => ({ board: i + 1, white, black, game, result, termination: null })),
  byes: byes.map(([player, kind]) => ({ player, kind })),
  explanation: null,
});

describe('players chat (Art. 11.3)', () => {
  it('the_players_chat_is_open_during_play_only_when_the_tournament_says_so', () => {
    expect(playersChatOpen({ players_chat: true })).toBe(true);
    expect(playersChatOpen({ players_chat: false })).toBe(false);
    // Tournaments created before the setting existed: FIDE's default, closed.
    expect(playersChatOpen({})).toBe(false);
    expect(playersChatOpen(null)).toBe(false);
    expect(playersChatOpen({ players_chat: 'true' })).toBe(false);
  });
});

describe('results and points', () => {
  it('results_read_as_people_write_them', () => {
    expect(resultText('1-0')).toBe('1–0');
    expect(resultText('1/2-1/2')).toBe('½–½');
    expect(resultText('+/-')).toBe('+ –');
    expect(resultText('-/+')).toBe('– +');
    expect(resultText('-/-')).toBe('– –');
    expect(resultText(null)).toBe('');
  });
  it('half_points_are_written_with_the_half_sign', () => {
    expect(pointsText(2.5)).toBe('2½');
    expect(pointsText(0.5)).toBe('½');
    expect(pointsText(3)).toBe('3');
    expect(pointsText('1.5')).toBe('1½');
    expect(pointsText(29.75)).toBe('29.75');
  });
  it('tiebreak_values_are_points_or_whole_numbers_and_a_missing_one_is_a_dash', () => {
    expect(tiebreakText('BH/C1', 3.5)).toBe('3½');
    expect(tiebreakText('SB', 2.25)).toBe('2.25');
    expect(tiebreakText('ARO', 1500)).toBe('1500');
    expect(tiebreakText('ARO', null)).toBe('–');
    expect(tiebreakText('DE', 1)).toBe('1');
  });
  it('crosstable_scores_of_each_side', () => {
    expect(scoresOf('1-0')).toEqual(['1', '0']);
    expect(scoresOf('-/+')).toEqual(['−', '+']);
    expect(scoresOf(null)).toEqual(['*', '*']);
  });
});

describe('lists, boards and the crosstable', () => {
  const sum = (id: string, status: string) => ({ id, status }) as unknown as TournamentSummary;
  it('tournaments_are_split_by_status', () => {
    const s = splitTournaments({ tournaments: [sum('a', 'upcoming'), sum('b', 'running'), sum('c', 'finished'), sum('d', 'running')] });
    expect(s.upcoming.map((x) => x.id)).toEqual(['a']);
    expect(s.running.map((x) => x.id)).toEqual(['b', 'd']);
    expect(s.finished.map((x) => x.id)).toEqual(['c']);
    expect(splitTournaments(null).running).toEqual([]);
  });
  it('a_player_finds_their_board_in_a_round', () => {
    const r = round(1, [
      [1, 2, 'g1', null],
      [3, 4, 'g2', null],
    ]);
    expect(boardOf(r, 4)?.board).toBe(2);
    expect(boardOf(r, 5)).toBeNull();
    expect(boardOf(undefined, 1)).toBeNull();
  });
  it('the_crosstable_has_one_cell_per_round_with_byes_and_gaps', () => {
    const rounds = [round(1, [[1, 2, 'g1', '1-0']], [[3, 'pairing_allocated']]), round(2, [[3, 1, 'g2', '1/2-1/2']], [[2, 'half']])];
    const x = crosstable([1, 2, 3, 4], rounds);
    expect(x.get(1)).toEqual([
      { opponent: 2, colour: 'w', score: '1' },
      { opponent: 3, colour: 'b', score: '½' },
    ]);
    expect(x.get(2)?.[1]).toEqual({ opponent: null, colour: null, score: '½' });
    expect(x.get(3)?.[0].score).toBe('1');
    // Entered after round 2: two empty cells.
    expect(x.get(4)).toEqual([
      { opponent: null, colour: null, score: '' },
      { opponent: null, colour: null, score: '' },
    ]);
  });
  it('an_account_is_found_among_the_players_whatever_the_case', () => {
    const t = { players: [{ no: 1, username: 'Alice' }, { no: 2, username: null }] };
    expect(myNo(t, 'alice')).toBe(1);
    expect(myNo(t, 'bob')).toBeNull();
    expect(myNo(t, null)).toBeNull();
  });
  it('a_newly_paired_game_of_the_player_is_found_once', () => {
    const before = { rounds: [round(1, [[1, 2, 'g1', '1-0']])] };
    const after = { rounds: [...before.rounds, round(2, [[2, 1, 'g2', null]])] };
    expect(newGameFor(before, after, 1)).toBe('g2');
    expect(newGameFor(after, after, 1)).toBeNull();
    expect(newGameFor(before, after, 3)).toBeNull();
    expect(newGameFor(before, after, null)).toBeNull();
  });
  it('explanations_come_as_lines', () => {
    expect(explanationLines(['a', '', 'b'])).toEqual(['a', 'b']);
    expect(explanationLines('x\ny')).toEqual(['x', 'y']);
    expect(explanationLines(null)).toEqual([]);
  });
  it('an_empty_start_time_means_the_director_starts_it', () => {
    expect(localInputToMs('')).toBeNull();
    expect(localInputToMs('2030-01-02T10:30')).toBe(new Date('2030-01-02T10:30').getTime());
  });
});

describe('tournament pages', () => {
  it('routes_of_the_tournament_pages', () => {
    expect(routeOf('/tournaments', '')).toMatchObject({ page: 'tournaments' });
    expect(routeOf('/tournaments/', '')).toMatchObject({ page: 'tournaments' });
    expect(routeOf('/tournament/new', '')).toEqual({ page: 'tournament-new' });
    expect(routeOf('/tournament/t1a2b3', '')).toEqual({ page: 'tournament', id: 't1a2b3' });
    expect(routeOf('/tournaments/t1a2b3', '')).toEqual({ page: 'tournament', id: 't1a2b3' });
    expect(tournamentPath('t1a2b3')).toBe('/tournament/t1a2b3');
  });
  it('every_language_has_every_word_of_tournaments', () => {
    const keys = (o: object, prefix = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`]));
    const en = keys(TOURNAMENTS_DICTS.en).sort();
    for (const l of ['cs', 'sk', 'fa'] as const) {
      expect(keys(TOURNAMENTS_DICTS[l]).sort()).toEqual(en);
      // Only a few words are the same as in English (TRF, Export, Rating…).
      const e = TOURNAMENTS_DICTS.en as Record<string, unknown>;
      const d = TOURNAMENTS_DICTS[l] as Record<string, unknown>;
      const same = Object.keys(e).filter((k) => typeof e[k] === 'string' && e[k] === d[k]);
      expect(same.length, `${l}: ${same.join(' ')}`).toBeLessThan(4);
    }
  });
});
