import { describe, expect, it } from 'vitest';
import { positionFromFen, makeUci, parseTyped, translateSan, replay, claims, moveWords, APPENDIX_D, INITIAL_FEN } from './chess';
import { verdict, verdictText, classifyTermination, errorText } from './i18n';
import { build, formatClock, simpleDelayMs, duration } from './timecontrol';

const uciOf = (r: ReturnType<typeof parseTyped>) => ('ok' in r ? makeUci(r.ok) : r);

describe('piece letters (Appendix C.3)', () => {
  it('c3_czech_letters_replace_english_ones', () => {
    expect(translateSan('Nf3', 'cs', false, 'white')).toBe('Jf3');
    expect(translateSan('Bxc6+', 'sk', false, 'white')).toBe('Sxc6+');
    expect(translateSan('exd8=Q#', 'cs', false, 'white')).toBe('exd8=D#');
    expect(translateSan('Rae1', 'cs', false, 'white')).toBe('Vae1');
  });
  it('c13_castling_is_written_with_zeros_in_czech', () => {
    expect(translateSan('O-O-O', 'cs', false, 'black')).toBe('0-0-0');
    expect(translateSan('O-O', 'en', false, 'black')).toBe('O-O');
  });
  it('figurines_follow_the_colour_of_the_mover', () => {
    expect(translateSan('Qh4#', 'en', true, 'black')).toBe('♛h4#');
    expect(translateSan('Nf3', 'fa', true, 'white')).toBe('♘f3');
  });
});

describe('typed moves', () => {
  const start = positionFromFen(INITIAL_FEN)!;
  it('czech_knight_letter_j_is_read', () => {
    expect(uciOf(parseTyped(start, 'Jf3', 'cs'))).toBe('g1f3');
  });
  it('english_letters_are_read_whatever_the_ui_language', () => {
    expect(uciOf(parseTyped(start, 'Nf3', 'cs'))).toBe('g1f3');
  });
  it('german_s_is_a_knight_when_no_other_reading_is_legal', () => {
    expect(uciOf(parseTyped(start, 'Sf3', 'en'))).toBe('g1f3');
  });
  it('uci_and_long_forms_are_read', () => {
    expect(uciOf(parseTyped(start, 'g1f3', 'en'))).toBe('g1f3');
    expect(uciOf(parseTyped(start, 'Ng1-f3', 'en'))).toBe('g1f3');
    expect(uciOf(parseTyped(start, 'e2-e4', 'en'))).toBe('e2e4');
  });
  it('castling_with_zeros_and_promotion_with_czech_letter', () => {
    const castle = positionFromFen('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1')!;
    expect(uciOf(parseTyped(castle, '0-0', 'cs'))).toBe('e1h1');
    expect(uciOf(parseTyped(castle, 'O-O-O', 'en'))).toBe('e1a1');
    const promo = positionFromFen('8/3P4/8/8/8/8/k7/4K3 w - - 0 1')!;
    expect(uciOf(parseTyped(promo, 'd8=D', 'cs'))).toBe('d7d8q');
    expect(uciOf(parseTyped(promo, 'd8J', 'cs'))).toBe('d7d8n');
  });
  it('an_ambiguous_move_lists_the_candidates', () => {
    const pos = positionFromFen('4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1')!;
    const r = parseTyped(pos, 'Nd2', 'en');
    expect(r).toEqual({ ambiguous: expect.arrayContaining(['Nbd2', 'Nfd2']) });
  });
  it('an_illegal_move_matches_nothing', () => {
    expect(parseTyped(start, 'Dh4', 'cs')).toEqual({ none: true });
  });
});

describe('draw claims', () => {
  const shuffle = ['g1f3', 'g8f6', 'f3g1', 'f6g8', 'g1f3', 'g8f6', 'f3g1'];
  it('art_9_2_1_1_the_move_that_repeats_a_third_time_makes_a_claim_valid', () => {
    const fenAfter = 'rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 7 4';
    const r = replay(INITIAL_FEN, shuffle, fenAfter);
    expect(r.complete).toBe(true);
    const c = claims(r);
    expect(c.now).toEqual([]);
    expect(c.withMove.map((m) => m.san)).toEqual(['Ng8']);
    expect(c.withMove[0].why).toBe('threefold');
  });
  it('art_9_2_1_2_a_position_that_appeared_three_times_can_be_claimed', () => {
    const r = replay(INITIAL_FEN, [...shuffle, 'f6g8'], INITIAL_FEN);
    expect(claims(r).now).toEqual(['threefold']);
  });
  it('art_9_3_fifty_moves_with_and_without_a_move', () => {
    const at99 = replay('8/8/4k3/8/8/4K3/8/7R w - - 99 80', [], '8/8/4k3/8/8/4K3/8/7R w - - 99 80');
    const c = claims(at99);
    expect(c.now).toEqual([]);
    expect(c.withMove.length).toBeGreaterThan(10);
    const at100 = replay('8/8/4k3/8/8/4K3/8/7R w - - 100 80', [], '8/8/4k3/8/8/4K3/8/7R w - - 100 80');
    expect(claims(at100).now).toEqual(['fifty']);
  });
  it('a_replay_that_disagrees_with_the_server_gives_no_claims', () => {
    const r = replay(INITIAL_FEN, ['e2e4'], INITIAL_FEN);
    expect(r.complete).toBe(false);
    expect(claims(r)).toEqual({ now: [], withMove: [] });
  });
});

describe('words (Appendix D)', () => {
  const start = positionFromFen(INITIAL_FEN)!;
  const en = { king: 'king', queen: 'queen', rook: 'rook', bishop: 'bishop', knight: 'knight', pawn: 'pawn', takes: 'takes', check: 'check', mate: 'checkmate', short: 'short castling', long: 'long castling', promotes: 'promotes to', enPassant: 'en passant' };
  it('d_2_1_moves_are_announced_with_phonetic_files_and_german_numerals', () => {
    expect(moveWords(start, { from: 6, to: 21 }, en, true)).toBe('Springer Gustav eins Felix drei');
    expect(moveWords(start, { from: 6, to: 21 }, en, false)).toBe('knight g1 f3');
    expect(APPENDIX_D.files).toHaveLength(8);
  });
  it('d_2_1_castling_is_kurze_rochade', () => {
    const pos = positionFromFen('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1')!;
    expect(moveWords(pos, { from: 4, to: 7 }, en, true)).toBe('Kurze Rochade');
    expect(moveWords(pos, { from: 4, to: 0 }, en, false)).toBe('long castling');
  });
  it('mate_is_announced', () => {
    const pos = positionFromFen('rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2')!;
    expect(moveWords(pos, { from: 59, to: 31 }, en, false)).toBe('queen d8 h4 checkmate');
  });
});

describe('results with their Articles', () => {
  it('art_9_6_1_fivefold_is_shown_with_its_article', () => {
    expect(verdictText(verdict('1/2-1/2', 'fivefold_repetition', 'finished'))).toBe('Draw — fivefold repetition, Art. 9.6.1');
  });
  it('art_5_1_1_checkmate', () => {
    expect(verdictText(verdict('0-1', 'checkmate', 'finished'))).toBe('Black wins — checkmate, Art. 5.1.1');
  });
  it('art_6_9_timeout_against_a_lone_king_is_a_draw', () => {
    expect(classifyTermination('timeout_vs_insufficient_material')).toEqual({ key: 'termTimeoutDraw', article: '6.9' });
    expect(classifyTermination('time_forfeit')).toEqual({ key: 'termTimeForfeit', article: '6.9' });
  });
});

describe('time controls in the server form', () => {
  const base = { kind: 'increment' as const, minutes: 5, seconds: 0, increment: 3, delay: 3, perMoveSeconds: 30, days: 3, periods: [{ minutes: 90, moves: 40, increment: 30 }, { minutes: 30, moves: null, increment: 30 }] };
  it('every_kind_is_written_as_the_server_reads_it', () => {
    expect(build(base)).toBe('5+3');
    expect(build({ ...base, minutes: 0, seconds: 45, increment: 0 })).toBe('45s+0');
    expect(build({ ...base, kind: 'bronstein' })).toBe('5 d3');
    expect(build({ ...base, kind: 'simpleDelay' })).toBe('5 sd3');
    expect(build({ ...base, kind: 'periods' })).toBe('90/40+30, 30+30');
    expect(build({ ...base, kind: 'perMove' })).toBe('30s/move');
    expect(build({ ...base, kind: 'correspondence' })).toBe('3d/move');
    expect(build({ ...base, kind: 'hourglass', minutes: 3 })).toBe('hourglass 3');
    expect(build({ ...base, kind: 'untimed' })).toBe('untimed');
    expect(duration(1, 30)).toBe('90s');
  });
  it('clock_figures', () => {
    expect(formatClock(65_000)).toBe('1:05');
    expect(formatClock(9_540)).toBe('0:09.5');
    expect(formatClock(3_723_000)).toBe('1:02:03');
    expect(formatClock(3 * 86_400_000 + 3_600_000)).toBe('3d 1:00');
    expect(formatClock(-5)).toBe('0:00.0');
  });
  it('art_6_3_2_simple_delay_is_read_from_the_control', () => {
    expect(simpleDelayMs('5 sd3')).toBe(3000);
    expect(simpleDelayMs('5 d3')).toBe(0);
    expect(simpleDelayMs('5+3')).toBe(0);
  });
});

describe('server errors in the user language', () => {
  it('known_codes_are_translated_and_details_kept', () => {
    expect(errorText('not_your_turn', 'it is not your move')).toBe('It is not your turn.');
    expect(errorText('bad_time_control', 'unknown unit "x"')).toBe('This time control cannot be read: unknown unit "x"');
    expect(errorText('something_new', 'server words')).toBe('server words');
  });
});
