// A tournament as the server describes it (docs/tournaments-api.md), for pictures of the pages
// without playing one: six players, round 1 complete, round 2 being played.

export function fixtureTournament(director = 'alice') {
  const players = [
    ['alice', 'alice', 1850, null, 'CZE'],
    ['Bořek Novák', null, 2010, 'FM', 'CZE'],
    ['bob', 'bob', 1500, null, ''],
    ['Shirin Karimi', null, 1720, null, 'IRI'],
    ['carol', 'carol', 1612, null, ''],
    ['Dávid Horváth', null, 1400, null, 'SVK'],
  ].map(([name, username, rating, title, federation], i) => ({ no: i + 1, name, username, rating, title, federation, fide_id: null, withdrawn: false, points: 0, byes: [] }));
  const rounds = [
    {
      round: 1,
      paired_at: Date.now() - 3600_000,
      complete: true,
      boards: [
        { board: 1, white: 1, black: 4, game: 'G1aaaaaa', result: '1-0', termination: 'checkmate' },
        { board: 2, white: 5, black: 2, game: null, result: '1/2-1/2', termination: null },
        { board: 3, white: 3, black: 6, game: null, result: '+/-', termination: 'forfeit' },
      ],
      byes: [],
      explanation: ['Round 1: players ordered by rating; the top half meets the bottom half.', 'Score group 0 (6 players): S1 = 1 2 3, S2 = 4 5 6.'],
    },
    {
      round: 2,
      paired_at: Date.now() - 600_000,
      complete: false,
      boards: [
        { board: 1, white: 3, black: 1, game: 'G2aaaaaa', result: null, termination: null },
        { board: 2, white: 2, black: 4, game: null, result: '0-1', termination: null },
      ],
      byes: [{ player: 6, kind: 'half' }, { player: 5, kind: 'pairing_allocated' }],
      explanation: ['Score group 1 (2 players): 1 3.', 'Player 5 gets the pairing-allocated bye (lowest score, lowest rank, no bye before).'],
    },
  ];
  const pts = { 1: 1, 2: 0.5, 3: 1, 4: 1, 5: 1.5, 6: 0.5 };
  for (const p of players) p.points = pts[p.no];
  const order = [5, 1, 3, 4, 2, 6];
  const standings = {
    tiebreaks: ['PTS', 'BH/C1', 'BH', 'SB', 'DE', 'ARO'],
    rows: order.map((no, i) => ({ rank: i + 1, no, name: players[no - 1].name, points: pts[no], tiebreaks: { PTS: pts[no], 'BH/C1': 1.5 - i * 0.25, BH: 2.5 - i * 0.5, SB: 1.25 - i * 0.25, DE: 0, ARO: i === 5 ? null : 1650 + i * 13 } })),
  };
  return {
    id: 'tFixture1',
    name: 'Tuesday blitz — Arbiter club',
    director,
    status: 'running',
    settings: { name: 'Tuesday blitz', system: 'swiss', rounds: 5, time_control: '3+2', rated: true, online: true, starts_at: null, registration_open: true, late_entry_until_round: 2, tiebreaks: ['BH/C1', 'BH', 'SB', 'DE', 'ARO'], tiebreak_rules: '2026', default_time_secs: 180, pause_secs: 30, scoring: { win: 1, draw: 0.5, loss: 0, bye: 1 } },
    registration_open: true,
    paused: false,
    current_round: 2,
    rounds_planned: 5,
    next_round_at: null,
    round_deadline: null,
    players,
    rounds,
    standings,
    created_at: Date.now() - 7200_000,
    started_at: Date.now() - 3600_000,
    finished_at: null,
    last_seq: 17,
  };
}
