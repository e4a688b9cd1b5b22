// The four languages of the UI: English, Czech (seed 001), Slovak (seed 002) and Persian
// (seed 003, right to left). Piece letters follow Appendix C.3 of the Laws.

import { PLAYERS_DICTS, type PlayersDict } from './i18n-players';
import { TOURNAMENTS_DICTS, type TournamentsDict } from './i18n-tournaments';

export type Lang = 'en' | 'cs' | 'sk' | 'fa';
export const LANGS: Lang[] = ['en', 'cs', 'sk', 'fa'];
export const LANG_NAMES: Record<Lang, string> = { en: 'English', cs: 'Čeština', sk: 'Slovenčina', fa: 'فارسی' };

const en = {
  title: 'Arbiter',
  tagline: 'Chess by the FIDE Laws, with clocks you can trust.',
  language: 'Language',
  notation: 'Notation',
  letters: 'Letters',
  figurines: 'Figurines',
  newGame: 'New game',
  timeControl: 'Time control',
  presets: 'Presets',
  custom: 'Custom',
  kind: 'Kind',
  kindIncrement: 'Increment (Fischer)',
  kindBronstein: 'Bronstein delay',
  kindSimpleDelay: 'Simple delay',
  kindPeriods: 'Periods (moves in a time)',
  kindPerMove: 'Time per move',
  kindCorrespondence: 'Correspondence (days per move)',
  kindHourglass: 'Hourglass',
  kindUntimed: 'Untimed',
  minutes: 'Minutes',
  seconds: 'Seconds',
  incrementSeconds: 'Increment (seconds)',
  delaySeconds: 'Delay (seconds)',
  moves: 'Moves',
  days: 'Days',
  period: 'Period',
  addPeriod: 'Add period',
  removePeriod: 'Remove',
  restOfGame: 'rest of the game',
  typedTimeControl: 'Time control as text',
  variant: 'Variant',
  standard: 'Standard',
  chess960: 'Chess960',
  fromFen: 'From a position (FEN)',
  positionNumber: 'Start position number (0–959)',
  random: 'Random',
  fen: 'FEN',
  color: 'Your colour',
  white: 'White',
  black: 'Black',
  competitionRules: 'Competition rules',
  drawOffersRule: 'Draw offers (Art. 9.1.1)',
  drawAllowed: 'Allowed',
  drawNotBefore: 'Not before move…',
  drawNever: 'Never (claims stay possible)',
  allowAbort: 'Either player may abort before both have moved',
  penaltySeconds: 'Time added to the opponent after an incorrect claim, seconds (Art. 9.5.3)',
  scoring: 'Scoring (Art. 10.1)',
  playAgainst: 'Play against',
  aFriend: 'a friend (you send an invitation)',
  theComputer: 'the computer',
  level: 'Level (1 beginner – 8 full strength)',
  computerLevel: 'Computer (level {level})',
  computerThinking: 'The computer is thinking…',
  otherEngines: 'Other engines',
  create: 'Create game',
  openGames: 'Open games',
  runningGames: 'Running games',
  join: 'Join',
  watch: 'Watch',
  noOpenGames: 'No game is waiting for an opponent.',
  noRunningGames: 'No game is being played.',
  refresh: 'Refresh',
  invite: 'Send this link to your opponent:',
  copyLink: 'Copy link',
  copied: 'Copied',
  share: 'Share…',
  boardLabel: 'Chessboard; to play from the keyboard use the move field below.',
  waiting: 'Waiting for an opponent…',
  joinThisGame: 'Join this game',
  spectating: 'You are watching this game.',
  youPlayWhite: 'You play White.',
  youPlayBlack: 'You play Black.',
  flip: 'Flip board',
  offerDraw: 'Offer draw',
  offerWithMove: 'Your draw offer will go with your next move (Art. 9.1.2.1).',
  drawOffered: 'You offered a draw.',
  opponentOffers: 'Your opponent offers a draw.',
  accept: 'Accept',
  decline: 'Decline',
  claimDraw: 'Claim draw',
  claimWithMove: 'Claim draw with move {move}',
  claimHint: 'A draw claim is valid now ({why}).',
  claimMoveHint: 'These moves make a draw claim valid (Art. 9.2.1.1 / 9.3.1): ',
  resign: 'Resign',
  abort: 'Abort',
  confirm: 'Are you sure?',
  yes: 'Yes',
  no: 'No',
  downloadPgn: 'Download PGN',
  movesTitle: 'Moves',
  backToGame: 'Back to the game',
  reconnecting: 'Connection lost; reconnecting…',
  toMove: '{color} to move',
  check: 'check',
  checkmate: 'checkmate',
  promoteTo: 'Promote to',
  cancel: 'Cancel',
  whiteWins: 'White wins',
  blackWins: 'Black wins',
  draw: 'Draw',
  aborted: 'Game aborted',
  adjourned: 'Game adjourned (Guideline I)',
  termCheckmate: 'checkmate',
  termResignation: 'resignation',
  termStalemate: 'stalemate',
  termDeadPosition: 'dead position',
  termAgreement: 'agreement',
  termThreefold: 'threefold repetition claimed',
  termFifty: 'fifty-move rule claimed',
  termFivefold: 'fivefold repetition',
  termSeventyFive: 'seventy-five-move rule',
  termTimeForfeit: 'time forfeit',
  termTimeoutDraw: 'flag fell, but no series of legal moves could checkmate',
  termAborted: 'aborted before both players moved',
  termIllegal: 'second illegal move',
  termIllegalDraw: 'second illegal move, but the opponent cannot checkmate',
  termForfeit: 'forfeit',
  termArbiter: 'arbiter’s decision',
  termSealed: 'invalid sealed move',
  art: 'Art.',
  accessible: 'Keyboard and screen reader',
  typeMove: 'Type a move (SAN, e.g. Nf3, Jf3, e4, O-O)',
  play: 'Play',
  skipToMove: 'Skip to the move field',
  readClocks: 'Read clocks',
  readPosition: 'Read position',
  readLastMove: 'Read last move',
  speak: 'Speak moves aloud',
  appendixD: 'Appendix D names (Anna, Bella … eins, zwei …)',
  sounds: 'Sounds',
  notYourTurn: 'It is not your turn.',
  notPlaying: 'You are not playing in this game.',
  unknownMove: 'No legal move matches “{text}”.',
  ambiguousMove: '“{text}” could be: {list}.',
  noMoves: 'No moves yet.',
  piecesOf: '{color}: {list}.',
  clockOf: '{color} {time}',
  notFound: 'This game does not exist.',
  gameFull: 'Both seats are taken; you can watch.',
  error: 'Error',
  days_: 'd',
  errors: {
    not_your_turn: 'It is not your turn.',
    illegal_move: 'That move is not legal.',
    game_over: 'The game is over.',
    seats_taken: 'Both seats are taken; you can watch.',
    draw_too_early: 'A draw can be agreed only after both players have moved (Art. 5.2.3).',
    draw_offers_not_allowed: 'The rules of this competition do not allow draw offers now (Art. 9.1.1).',
    cannot_abort: 'The game can no longer be aborted.',
    bad_time_control: 'This time control cannot be read:',
    bad_fen: 'This FEN cannot be used:',
    bad_computer_level: 'The computer’s level must be from 1 to 8.',
    unknown_engine: 'This engine is not available on this server.',
    engine_cannot_play_chess960: 'This engine does not play Chess960.',
  } as Record<string, string>,
  words: {
    king: 'king',
    queen: 'queen',
    rook: 'rook',
    bishop: 'bishop',
    knight: 'knight',
    pawn: 'pawn',
    takes: 'takes',
    check: 'check',
    mate: 'checkmate',
    short: 'short castling',
    long: 'long castling',
    promotes: 'promotes to',
    enPassant: 'en passant',
  },
};

export type Dict = typeof en;

const cs: Dict = {
  title: 'Arbiter',
  tagline: 'Šachy podle Pravidel FIDE, s hodinami, kterým lze věřit.',
  language: 'Jazyk',
  notation: 'Zápis',
  letters: 'Písmena',
  figurines: 'Figurky',
  newGame: 'Nová partie',
  timeControl: 'Tempo hry',
  presets: 'Předvolby',
  custom: 'Vlastní',
  kind: 'Druh',
  kindIncrement: 'Přídavek (Fischer)',
  kindBronstein: 'Zpoždění (Bronstein)',
  kindSimpleDelay: 'Prosté zpoždění',
  kindPeriods: 'Periody (tahy za čas)',
  kindPerMove: 'Čas na tah',
  kindCorrespondence: 'Korespondenčně (dny na tah)',
  kindHourglass: 'Přesýpací hodiny',
  kindUntimed: 'Bez časové kontroly',
  minutes: 'Minuty',
  seconds: 'Sekundy',
  incrementSeconds: 'Přídavek (sekundy)',
  delaySeconds: 'Zpoždění (sekundy)',
  moves: 'Tahy',
  days: 'Dny',
  period: 'Perioda',
  addPeriod: 'Přidat periodu',
  removePeriod: 'Odebrat',
  restOfGame: 'zbytek partie',
  typedTimeControl: 'Tempo jako text',
  variant: 'Varianta',
  standard: 'Klasické šachy',
  chess960: 'Šachy960',
  fromFen: 'Z pozice (FEN)',
  positionNumber: 'Číslo výchozí pozice (0–959)',
  random: 'Náhodně',
  fen: 'FEN',
  color: 'Vaše barva',
  white: 'Bílý',
  black: 'Černý',
  competitionRules: 'Soutěžní pravidla',
  drawOffersRule: 'Nabídky remízy (čl. 9.1.1)',
  drawAllowed: 'Povoleny',
  drawNotBefore: 'Ne před tahem…',
  drawNever: 'Nikdy (reklamace zůstávají možné)',
  allowAbort: 'Kterýkoli hráč smí partii zrušit, dokud oba netáhli',
  penaltySeconds: 'Čas přidaný soupeři po nesprávné reklamaci, sekundy (čl. 9.5.3)',
  scoring: 'Bodování (čl. 10.1)',
  playAgainst: 'Hrát proti',
  aFriend: 'příteli (pošlete mu pozvánku)',
  theComputer: 'počítači',
  level: 'Úroveň (1 začátečník – 8 plná síla)',
  computerLevel: 'Počítač (úroveň {level})',
  computerThinking: 'Počítač přemýšlí…',
  otherEngines: 'Další šachové programy',
  create: 'Založit partii',
  openGames: 'Partie čekající na soupeře',
  runningGames: 'Probíhající partie',
  join: 'Přijmout',
  watch: 'Sledovat',
  noOpenGames: 'Žádná partie nečeká na soupeře.',
  noRunningGames: 'Právě se nic nehraje.',
  refresh: 'Obnovit',
  invite: 'Pošlete soupeři tento odkaz:',
  copyLink: 'Kopírovat odkaz',
  copied: 'Zkopírováno',
  share: 'Sdílet…',
  boardLabel: 'Šachovnice; z klávesnice hrajte polem pro zápis tahu níže.',
  waiting: 'Čeká se na soupeře…',
  joinThisGame: 'Hrát tuto partii',
  spectating: 'Sledujete tuto partii.',
  youPlayWhite: 'Hrajete bílými.',
  youPlayBlack: 'Hrajete černými.',
  flip: 'Otočit šachovnici',
  offerDraw: 'Nabídnout remízu',
  offerWithMove: 'Nabídka remízy odejde s vaším příštím tahem (čl. 9.1.2.1).',
  drawOffered: 'Nabídli jste remízu.',
  opponentOffers: 'Soupeř nabízí remízu.',
  accept: 'Přijmout',
  decline: 'Odmítnout',
  claimDraw: 'Reklamovat remízu',
  claimWithMove: 'Reklamovat remízu tahem {move}',
  claimHint: 'Reklamace remízy je nyní oprávněná ({why}).',
  claimMoveHint: 'Tyto tahy zakládají oprávněnou reklamaci remízy (čl. 9.2.1.1 / 9.3.1): ',
  resign: 'Vzdát',
  abort: 'Zrušit partii',
  confirm: 'Opravdu?',
  yes: 'Ano',
  no: 'Ne',
  downloadPgn: 'Stáhnout PGN',
  movesTitle: 'Zápis partie',
  backToGame: 'Zpět k partii',
  reconnecting: 'Spojení ztraceno; obnovuje se…',
  toMove: 'Na tahu je {color}',
  check: 'šach',
  checkmate: 'mat',
  promoteTo: 'Proměnit v',
  cancel: 'Zpět',
  whiteWins: 'Vyhrává bílý',
  blackWins: 'Vyhrává černý',
  draw: 'Remíza',
  aborted: 'Partie zrušena',
  adjourned: 'Partie přerušena (Směrnice I)',
  termCheckmate: 'mat',
  termResignation: 'vzdání',
  termStalemate: 'pat',
  termDeadPosition: 'mrtvá pozice',
  termAgreement: 'dohoda',
  termThreefold: 'reklamace trojího opakování pozice',
  termFifty: 'reklamace pravidla 50 tahů',
  termFivefold: 'pětinásobné opakování pozice',
  termSeventyFive: 'pravidlo 75 tahů',
  termTimeForfeit: 'překročení času',
  termTimeoutDraw: 'spadl praporek, ale soupeř nemůže dát mat žádnou řadou tahů',
  termAborted: 'zrušena dříve, než oba hráči táhli',
  termIllegal: 'druhý nemožný tah',
  termIllegalDraw: 'druhý nemožný tah, ale soupeř nemůže dát mat',
  termForfeit: 'kontumace',
  termArbiter: 'rozhodnutí rozhodčího',
  termSealed: 'neplatný zapečetěný tah',
  art: 'čl.',
  accessible: 'Klávesnice a odečítač obrazovky',
  typeMove: 'Napište tah (např. Jf3, e4, 0-0)',
  play: 'Táhnout',
  skipToMove: 'Přejít na pole pro zápis tahu',
  readClocks: 'Přečíst hodiny',
  readPosition: 'Přečíst pozici',
  readLastMove: 'Přečíst poslední tah',
  speak: 'Hlásit tahy nahlas',
  appendixD: 'Jména podle přílohy D (Anna, Bella … eins, zwei …)',
  sounds: 'Zvuky',
  notYourTurn: 'Nejste na tahu.',
  notPlaying: 'V této partii nehrajete.',
  unknownMove: 'Zápisu „{text}“ neodpovídá žádný přípustný tah.',
  ambiguousMove: '„{text}“ může být: {list}.',
  noMoves: 'Zatím žádné tahy.',
  piecesOf: '{color}: {list}.',
  clockOf: '{color} {time}',
  notFound: 'Tato partie neexistuje.',
  gameFull: 'Obě místa jsou obsazena; můžete partii sledovat.',
  error: 'Chyba',
  days_: 'd',
  errors: {
    not_your_turn: 'Nejste na tahu.',
    illegal_move: 'Tento tah není možný.',
    game_over: 'Partie skončila.',
    seats_taken: 'Obě místa jsou obsazena; můžete partii sledovat.',
    draw_too_early: 'Remízu lze dohodnout, až oba hráči provedli tah (čl. 5.2.3).',
    draw_offers_not_allowed: 'Pravidla soutěže nyní nabídku remízy nedovolují (čl. 9.1.1).',
    cannot_abort: 'Partii už nelze zrušit.',
    bad_time_control: 'Tempo hry nelze přečíst:',
    bad_fen: 'Tento FEN nelze použít:',
    bad_computer_level: 'Úroveň počítače musí být od 1 do 8.',
    unknown_engine: 'Tento šachový program na serveru není k dispozici.',
    engine_cannot_play_chess960: 'Tento šachový program nehraje Chess960.',
  } as Record<string, string>,
  words: {
    king: 'král',
    queen: 'dáma',
    rook: 'věž',
    bishop: 'střelec',
    knight: 'jezdec',
    pawn: 'pěšec',
    takes: 'bere',
    check: 'šach',
    mate: 'mat',
    short: 'malá rošáda',
    long: 'velká rošáda',
    promotes: 'mění se v',
    enPassant: 'mimochodem',
  },
};

const sk: Dict = {
  title: 'Arbiter',
  tagline: 'Šach podľa Pravidiel FIDE, s hodinami, ktorým sa dá veriť.',
  language: 'Jazyk',
  notation: 'Zápis',
  letters: 'Písmená',
  figurines: 'Figúrky',
  newGame: 'Nová partia',
  timeControl: 'Tempo hry',
  presets: 'Predvoľby',
  custom: 'Vlastné',
  kind: 'Druh',
  kindIncrement: 'Prídavok (Fischer)',
  kindBronstein: 'Oneskorenie (Bronstein)',
  kindSimpleDelay: 'Jednoduché oneskorenie',
  kindPeriods: 'Periódy (ťahy za čas)',
  kindPerMove: 'Čas na ťah',
  kindCorrespondence: 'Korešpondenčne (dni na ťah)',
  kindHourglass: 'Presýpacie hodiny',
  kindUntimed: 'Bez časovej kontroly',
  minutes: 'Minúty',
  seconds: 'Sekundy',
  incrementSeconds: 'Prídavok (sekundy)',
  delaySeconds: 'Oneskorenie (sekundy)',
  moves: 'Ťahy',
  days: 'Dni',
  period: 'Perióda',
  addPeriod: 'Pridať periódu',
  removePeriod: 'Odobrať',
  restOfGame: 'zvyšok partie',
  typedTimeControl: 'Tempo ako text',
  variant: 'Variant',
  standard: 'Klasický šach',
  chess960: 'Šach960',
  fromFen: 'Z pozície (FEN)',
  positionNumber: 'Číslo východiskovej pozície (0–959)',
  random: 'Náhodne',
  fen: 'FEN',
  color: 'Vaša farba',
  white: 'Biely',
  black: 'Čierny',
  competitionRules: 'Súťažné pravidlá',
  drawOffersRule: 'Ponuky remízy (čl. 9.1.1)',
  drawAllowed: 'Povolené',
  drawNotBefore: 'Nie pred ťahom…',
  drawNever: 'Nikdy (reklamácie zostávajú možné)',
  allowAbort: 'Ktorýkoľvek hráč smie partiu zrušiť, kým obaja neťahali',
  penaltySeconds: 'Čas pridaný súperovi po nesprávnej reklamácii, sekundy (čl. 9.5.3)',
  scoring: 'Bodovanie (čl. 10.1)',
  playAgainst: 'Hrať proti',
  aFriend: 'priateľovi (pošlete mu pozvánku)',
  theComputer: 'počítaču',
  level: 'Úroveň (1 začiatočník – 8 plná sila)',
  computerLevel: 'Počítač (úroveň {level})',
  computerThinking: 'Počítač premýšľa…',
  otherEngines: 'Ďalšie šachové programy',
  create: 'Založiť partiu',
  openGames: 'Partie čakajúce na súpera',
  runningGames: 'Prebiehajúce partie',
  join: 'Prijať',
  watch: 'Sledovať',
  noOpenGames: 'Žiadna partia nečaká na súpera.',
  noRunningGames: 'Práve sa nič nehrá.',
  refresh: 'Obnoviť',
  invite: 'Pošlite súperovi tento odkaz:',
  copyLink: 'Kopírovať odkaz',
  copied: 'Skopírované',
  share: 'Zdieľať…',
  boardLabel: 'Šachovnica; z klávesnice hrajte poľom na zápis ťahu nižšie.',
  waiting: 'Čaká sa na súpera…',
  joinThisGame: 'Hrať túto partiu',
  spectating: 'Sledujete túto partiu.',
  youPlayWhite: 'Hráte bielymi.',
  youPlayBlack: 'Hráte čiernymi.',
  flip: 'Otočiť šachovnicu',
  offerDraw: 'Ponúknuť remízu',
  offerWithMove: 'Ponuka remízy odíde s vaším ďalším ťahom (čl. 9.1.2.1).',
  drawOffered: 'Ponúkli ste remízu.',
  opponentOffers: 'Súper ponúka remízu.',
  accept: 'Prijať',
  decline: 'Odmietnuť',
  claimDraw: 'Reklamovať remízu',
  claimWithMove: 'Reklamovať remízu ťahom {move}',
  claimHint: 'Reklamácia remízy je teraz oprávnená ({why}).',
  claimMoveHint: 'Tieto ťahy zakladajú oprávnenú reklamáciu remízy (čl. 9.2.1.1 / 9.3.1): ',
  resign: 'Vzdať sa',
  abort: 'Zrušiť partiu',
  confirm: 'Naozaj?',
  yes: 'Áno',
  no: 'Nie',
  downloadPgn: 'Stiahnuť PGN',
  movesTitle: 'Zápis partie',
  backToGame: 'Späť k partii',
  reconnecting: 'Spojenie stratené; obnovuje sa…',
  toMove: 'Na ťahu je {color}',
  check: 'šach',
  checkmate: 'mat',
  promoteTo: 'Premeniť na',
  cancel: 'Späť',
  whiteWins: 'Vyhráva biely',
  blackWins: 'Vyhráva čierny',
  draw: 'Remíza',
  aborted: 'Partia zrušená',
  adjourned: 'Partia prerušená (Smernica I)',
  termCheckmate: 'mat',
  termResignation: 'vzdanie sa',
  termStalemate: 'pat',
  termDeadPosition: 'mŕtva pozícia',
  termAgreement: 'dohoda',
  termThreefold: 'reklamácia trojnásobného opakovania pozície',
  termFifty: 'reklamácia pravidla 50 ťahov',
  termFivefold: 'päťnásobné opakovanie pozície',
  termSeventyFive: 'pravidlo 75 ťahov',
  termTimeForfeit: 'prekročenie času',
  termTimeoutDraw: 'spadla zástavka, ale súper nemôže dať mat žiadnym radom ťahov',
  termAborted: 'zrušená skôr, než obaja hráči ťahali',
  termIllegal: 'druhý nemožný ťah',
  termIllegalDraw: 'druhý nemožný ťah, ale súper nemôže dať mat',
  termForfeit: 'kontumácia',
  termArbiter: 'rozhodnutie rozhodcu',
  termSealed: 'neplatný zapečatený ťah',
  art: 'čl.',
  accessible: 'Klávesnica a čítačka obrazovky',
  typeMove: 'Napíšte ťah (napr. Jf3, e4, 0-0)',
  play: 'Ťahať',
  skipToMove: 'Prejsť na pole na zápis ťahu',
  readClocks: 'Prečítať hodiny',
  readPosition: 'Prečítať pozíciu',
  readLastMove: 'Prečítať posledný ťah',
  speak: 'Hlásiť ťahy nahlas',
  appendixD: 'Mená podľa prílohy D (Anna, Bella … eins, zwei …)',
  sounds: 'Zvuky',
  notYourTurn: 'Nie ste na ťahu.',
  notPlaying: 'V tejto partii nehráte.',
  unknownMove: 'Zápisu „{text}“ nezodpovedá žiadny prípustný ťah.',
  ambiguousMove: '„{text}“ môže byť: {list}.',
  noMoves: 'Zatiaľ žiadne ťahy.',
  piecesOf: '{color}: {list}.',
  clockOf: '{color} {time}',
  notFound: 'Táto partia neexistuje.',
  gameFull: 'Obe miesta sú obsadené; môžete partiu sledovať.',
  error: 'Chyba',
  days_: 'd',
  errors: {
    not_your_turn: 'Nie ste na ťahu.',
    illegal_move: 'Tento ťah nie je možný.',
    game_over: 'Partia skončila.',
    seats_taken: 'Obe miesta sú obsadené; môžete partiu sledovať.',
    draw_too_early: 'Remízu možno dohodnúť, až keď obaja hráči urobili ťah (čl. 5.2.3).',
    draw_offers_not_allowed: 'Pravidlá súťaže teraz ponuku remízy nedovoľujú (čl. 9.1.1).',
    cannot_abort: 'Partiu už nemožno zrušiť.',
    bad_time_control: 'Tempo hry sa nedá prečítať:',
    bad_fen: 'Tento FEN sa nedá použiť:',
    bad_computer_level: 'Úroveň počítača musí byť od 1 do 8.',
    unknown_engine: 'Tento šachový program nie je na serveri k dispozícii.',
    engine_cannot_play_chess960: 'Tento šachový program nehrá Chess960.',
  } as Record<string, string>,
  words: {
    king: 'kráľ',
    queen: 'dáma',
    rook: 'veža',
    bishop: 'strelec',
    knight: 'jazdec',
    pawn: 'pešiak',
    takes: 'berie',
    check: 'šach',
    mate: 'mat',
    short: 'malá rošáda',
    long: 'veľká rošáda',
    promotes: 'mení sa na',
    enPassant: 'mimochodom',
  },
};

const fa: Dict = {
  title: 'آربیتر',
  tagline: 'شطرنج طبق قوانین فیده، با ساعتی که می‌توان به آن اعتماد کرد.',
  language: 'زبان',
  notation: 'نمادگذاری',
  letters: 'حروف',
  figurines: 'نماد مهره‌ها',
  newGame: 'بازی تازه',
  timeControl: 'کنترل زمان',
  presets: 'پیش‌تنظیم‌ها',
  custom: 'دلخواه',
  kind: 'نوع',
  kindIncrement: 'افزایش زمان (فیشر)',
  kindBronstein: 'تأخیر برونشتاین',
  kindSimpleDelay: 'تأخیر ساده',
  kindPeriods: 'دوره‌ها (تعداد حرکت در زمان)',
  kindPerMove: 'زمان برای هر حرکت',
  kindCorrespondence: 'مکاتبه‌ای (روز برای هر حرکت)',
  kindHourglass: 'ساعت شنی',
  kindUntimed: 'بدون زمان',
  minutes: 'دقیقه',
  seconds: 'ثانیه',
  incrementSeconds: 'افزایش (ثانیه)',
  delaySeconds: 'تأخیر (ثانیه)',
  moves: 'حرکت‌ها',
  days: 'روز',
  period: 'دوره',
  addPeriod: 'افزودن دوره',
  removePeriod: 'حذف',
  restOfGame: 'بقیهٔ بازی',
  typedTimeControl: 'کنترل زمان به صورت متن',
  variant: 'گونه',
  standard: 'استاندارد',
  chess960: 'شطرنج ۹۶۰',
  fromFen: 'از یک وضعیت (FEN)',
  positionNumber: 'شمارهٔ وضعیت آغازین (۰ تا ۹۵۹)',
  random: 'تصادفی',
  fen: 'FEN',
  color: 'رنگ شما',
  white: 'سفید',
  black: 'سیاه',
  competitionRules: 'قوانین مسابقه',
  drawOffersRule: 'پیشنهاد تساوی (مادهٔ ۹٫۱٫۱)',
  drawAllowed: 'مجاز',
  drawNotBefore: 'نه پیش از حرکت…',
  drawNever: 'هرگز (ادعای تساوی همچنان ممکن است)',
  allowAbort: 'هر بازیکن پیش از آنکه هر دو حرکت کنند می‌تواند بازی را لغو کند',
  penaltySeconds: 'زمان افزوده به حریف پس از ادعای نادرست، ثانیه (مادهٔ ۹٫۵٫۳)',
  scoring: 'امتیازدهی (مادهٔ ۱۰٫۱)',
  playAgainst: 'بازی در برابر',
  aFriend: 'یک دوست (برایش دعوت‌نامه می‌فرستید)',
  theComputer: 'رایانه',
  level: 'سطح (۱ مبتدی تا ۸ با تمام قدرت)',
  computerLevel: 'رایانه (سطح {level})',
  computerThinking: 'رایانه در حال فکر کردن است…',
  otherEngines: 'موتورهای شطرنج دیگر',
  create: 'ساختن بازی',
  openGames: 'بازی‌های در انتظار حریف',
  runningGames: 'بازی‌های در جریان',
  join: 'پیوستن',
  watch: 'تماشا',
  noOpenGames: 'هیچ بازی‌ای در انتظار حریف نیست.',
  noRunningGames: 'اکنون بازی‌ای در جریان نیست.',
  refresh: 'تازه‌سازی',
  invite: 'این پیوند را برای حریف خود بفرستید:',
  copyLink: 'رونوشت پیوند',
  copied: 'رونوشت شد',
  share: 'هم‌رسانی…',
  boardLabel: 'صفحهٔ شطرنج؛ برای بازی با صفحه‌کلید از کادر حرکت در پایین استفاده کنید.',
  waiting: 'در انتظار حریف…',
  joinThisGame: 'پیوستن به این بازی',
  spectating: 'شما تماشاگر این بازی هستید.',
  youPlayWhite: 'شما با سفید بازی می‌کنید.',
  youPlayBlack: 'شما با سیاه بازی می‌کنید.',
  flip: 'چرخاندن صفحه',
  offerDraw: 'پیشنهاد تساوی',
  offerWithMove: 'پیشنهاد تساوی همراه حرکت بعدی شما فرستاده می‌شود (مادهٔ ۹٫۱٫۲٫۱).',
  drawOffered: 'شما تساوی پیشنهاد کردید.',
  opponentOffers: 'حریف شما تساوی پیشنهاد می‌کند.',
  accept: 'پذیرفتن',
  decline: 'رد کردن',
  claimDraw: 'ادعای تساوی',
  claimWithMove: 'ادعای تساوی با حرکت {move}',
  claimHint: 'ادعای تساوی اکنون معتبر است ({why}).',
  claimMoveHint: 'این حرکت‌ها ادعای تساوی را معتبر می‌کنند (مادهٔ ۹٫۲٫۱٫۱ / ۹٫۳٫۱): ',
  resign: 'تسلیم',
  abort: 'لغو بازی',
  confirm: 'مطمئن هستید؟',
  yes: 'بله',
  no: 'خیر',
  downloadPgn: 'دریافت PGN',
  movesTitle: 'حرکت‌ها',
  backToGame: 'بازگشت به بازی',
  reconnecting: 'اتصال قطع شد؛ در حال اتصال دوباره…',
  toMove: 'نوبت {color}',
  check: 'کیش',
  checkmate: 'کیش و مات',
  promoteTo: 'ترفیع به',
  cancel: 'انصراف',
  whiteWins: 'سفید می‌برد',
  blackWins: 'سیاه می‌برد',
  draw: 'تساوی',
  aborted: 'بازی لغو شد',
  adjourned: 'بازی معلق شد (رهنمود I)',
  termCheckmate: 'کیش و مات',
  termResignation: 'تسلیم',
  termStalemate: 'پات',
  termDeadPosition: 'وضعیت مرده',
  termAgreement: 'توافق',
  termThreefold: 'ادعای تکرار سه‌بارهٔ وضعیت',
  termFifty: 'ادعای قانون ۵۰ حرکت',
  termFivefold: 'تکرار پنج‌بارهٔ وضعیت',
  termSeventyFive: 'قانون ۷۵ حرکت',
  termTimeForfeit: 'پایان زمان',
  termTimeoutDraw: 'زمان تمام شد، اما حریف با هیچ ترتیبی از حرکات قانونی نمی‌تواند مات کند',
  termAborted: 'لغو پیش از آنکه هر دو بازیکن حرکت کنند',
  termIllegal: 'دومین حرکت غیرقانونی',
  termIllegalDraw: 'دومین حرکت غیرقانونی، اما حریف نمی‌تواند مات کند',
  termForfeit: 'باخت فنی',
  termArbiter: 'تصمیم داور',
  termSealed: 'حرکت مهروموم‌شدهٔ نامعتبر',
  art: 'مادهٔ',
  accessible: 'صفحه‌کلید و صفحه‌خوان',
  typeMove: 'حرکت را به نمادگذاری جبری بنویسید؛ مثلاً Nf3 یا e4',
  play: 'حرکت',
  skipToMove: 'رفتن به کادر حرکت',
  readClocks: 'خواندن ساعت‌ها',
  readPosition: 'خواندن وضعیت',
  readLastMove: 'خواندن آخرین حرکت',
  speak: 'خواندن حرکت‌ها با صدا',
  appendixD: 'نام‌های پیوست د: آنا، بلا، … و آینس، تسوای، …',
  sounds: 'صداها',
  notYourTurn: 'نوبت شما نیست.',
  notPlaying: 'شما در این بازی بازیکن نیستید.',
  unknownMove: 'هیچ حرکت قانونی با «{text}» جور نیست.',
  ambiguousMove: '«{text}» می‌تواند این‌ها باشد: {list}.',
  noMoves: 'هنوز حرکتی انجام نشده است.',
  piecesOf: '{color}: {list}.',
  clockOf: '{color} {time}',
  notFound: 'این بازی وجود ندارد.',
  gameFull: 'هر دو جایگاه پر است؛ می‌توانید تماشا کنید.',
  error: 'خطا',
  days_: 'روز',
  errors: {
    not_your_turn: 'نوبت شما نیست.',
    illegal_move: 'این حرکت قانونی نیست.',
    game_over: 'بازی تمام شده است.',
    seats_taken: 'هر دو جایگاه پر است؛ می‌توانید تماشا کنید.',
    draw_too_early: 'تساوی تنها پس از آنکه هر دو بازیکن حرکت کرده باشند ممکن است (مادهٔ ۵٫۲٫۳).',
    draw_offers_not_allowed: 'قوانین این مسابقه اکنون پیشنهاد تساوی را مجاز نمی‌دانند (مادهٔ ۹٫۱٫۱).',
    cannot_abort: 'دیگر نمی‌توان بازی را لغو کرد.',
    bad_time_control: 'این کنترل زمان خوانده نمی‌شود:',
    bad_fen: 'این FEN قابل استفاده نیست:',
    bad_computer_level: 'سطح رایانه باید از ۱ تا ۸ باشد.',
    unknown_engine: 'این موتور شطرنج روی این سرور در دسترس نیست.',
    engine_cannot_play_chess960: 'این موتور شطرنج، شطرنج ۹۶۰ بازی نمی‌کند.',
  } as Record<string, string>,
  words: {
    king: 'شاه',
    queen: 'وزیر',
    rook: 'رخ',
    bishop: 'فیل',
    knight: 'اسب',
    pawn: 'سرباز',
    takes: 'می‌زند',
    check: 'کیش',
    mate: 'کیش و مات',
    short: 'قلعهٔ کوتاه',
    long: 'قلعهٔ بلند',
    promotes: 'ترفیع به',
    enPassant: 'آن‌پاسان',
  },
};

const DICTS: Record<Lang, Dict> = { en, cs, sk, fa };

/** Piece letters K Q R B N per language (Appendix C.3). Persian notation uses the English
 * letters (seed 003). */
export const PIECE_LETTERS: Record<Lang | 'de', [string, string, string, string, string]> = {
  en: ['K', 'Q', 'R', 'B', 'N'],
  cs: ['K', 'D', 'V', 'S', 'J'],
  sk: ['K', 'D', 'V', 'S', 'J'],
  fa: ['K', 'Q', 'R', 'B', 'N'],
  de: ['K', 'D', 'T', 'L', 'S'],
};

let current: Lang = 'en';

export function detectLang(): Lang {
  try {
    const saved = localStorage.getItem('arbiter.lang');
    if (saved && (LANGS as string[]).includes(saved)) return saved as Lang;
  } catch {
    /* ignore */
  }
  for (const l of navigator.languages ?? [navigator.language]) {
    const code = l.toLowerCase().split('-')[0];
    if ((LANGS as string[]).includes(code)) return code as Lang;
  }
  return 'en';
}

export function setLang(l: Lang): void {
  current = l;
  try {
    localStorage.setItem('arbiter.lang', l);
  } catch {
    /* ignore */
  }
  document.documentElement.lang = l;
  document.documentElement.dir = l === 'fa' ? 'rtl' : 'ltr';
}

export function lang(): Lang {
  return current;
}

export function t(): Dict {
  return DICTS[current];
}

/** The words of accounts, profiles and the lobby (i18n-players.ts). */
export function pt(): PlayersDict {
  return PLAYERS_DICTS[current];
}

/** The words of tournaments (i18n-tournaments.ts). */
export function tt(): TournamentsDict {
  return TOURNAMENTS_DICTS[current];
}

/** Fills `{name}` placeholders. */
export function fmt(s: string, args: Record<string, string>): string {
  return s.replace(/\{(\w+)\}/g, (_, k: string) => args[k] ?? '');
}

/** Digits as the language writes them (Persian uses its own digits). */
export function digits(s: string): string {
  if (current !== 'fa') return s;
  return s.replace(/[0-9]/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[Number(d)]);
}

/** A date (and time) as the language writes it; Persian gets its own calendar and digits. */
export function dateText(ms: number, withTime = false, short = false): string {
  if (!Number.isFinite(ms)) return '';
  const dateStyle = short ? 'short' : 'medium';
  const opts: Intl.DateTimeFormatOptions = withTime ? { dateStyle, timeStyle: 'short' } : { dateStyle };
  try {
    // The English of this UI is British ("colour"): its dates are too (25/11/2026).
    return new Intl.DateTimeFormat(current === 'en' ? 'en-GB' : current, opts).format(new Date(ms));
  } catch {
    return new Date(ms).toISOString().slice(0, withTime ? 16 : 10).replace('T', ' ');
  }
}

/** A time of day as the language writes it (Persian digits for Persian). */
export function timeText(ms: number): string {
  if (!Number.isFinite(ms)) return '';
  try {
    return new Intl.DateTimeFormat(current === 'en' ? 'en-GB' : current, { timeStyle: 'short' }).format(new Date(ms));
  } catch {
    return new Date(ms).toISOString().slice(11, 16);
  }
}

export function colorName(c: 'white' | 'black'): string {
  return c === 'white' ? t().white : t().black;
}

/** What ended the game, in the user's language, with the Article of the Laws it rests on. */
export interface Verdict {
  headline: string;
  reason: string;
  article: string | null;
}

type TermKey =
  | 'termCheckmate'
  | 'termResignation'
  | 'termStalemate'
  | 'termDeadPosition'
  | 'termAgreement'
  | 'termThreefold'
  | 'termFifty'
  | 'termFivefold'
  | 'termSeventyFive'
  | 'termTimeForfeit'
  | 'termTimeoutDraw'
  | 'termAborted'
  | 'termIllegal'
  | 'termIllegalDraw'
  | 'termForfeit'
  | 'termArbiter'
  | 'termSealed';

/** The server's termination codes (arbiter-game `Termination`) and their Articles. */
const TERMINATIONS: Record<string, { key: TermKey; article: string | null }> = {
  checkmate: { key: 'termCheckmate', article: '5.1.1' },
  resignation: { key: 'termResignation', article: '5.1.2' },
  stalemate: { key: 'termStalemate', article: '5.2.1' },
  dead_position: { key: 'termDeadPosition', article: '5.2.2' },
  agreement: { key: 'termAgreement', article: '5.2.3' },
  threefold_repetition: { key: 'termThreefold', article: '9.2' },
  fifty_moves: { key: 'termFifty', article: '9.3' },
  fivefold_repetition: { key: 'termFivefold', article: '9.6.1' },
  seventyfive_moves: { key: 'termSeventyFive', article: '9.6.2' },
  timeout: { key: 'termTimeForfeit', article: '6.9' },
  timeout_vs_insufficient_material: { key: 'termTimeoutDraw', article: '6.9' },
  illegal_moves: { key: 'termIllegal', article: '7.5.5' },
  illegal_moves_vs_insufficient_material: { key: 'termIllegalDraw', article: '7.5.5' },
  invalid_sealed_move: { key: 'termSealed', article: 'Guideline I.8' },
  forfeit: { key: 'termForfeit', article: '6.7.1' },
  arbiter_decision: { key: 'termArbiter', article: '12.9' },
  aborted: { key: 'termAborted', article: null },
};

/** Maps the server's termination code to its name and Article of the 2018 Laws. */
export function classifyTermination(raw: string | null | undefined): { key: TermKey; article: string | null } | null {
  if (!raw) return null;
  const exact = TERMINATIONS[raw.toLowerCase()];
  if (exact) return exact;
  const s = raw.toLowerCase().replace(/[^a-z0-9]/g, '');
  const timeish = /time|flag|clock/.test(s);
  if (s.includes('abort')) return { key: 'termAborted', article: null };
  if (s.includes('illegal')) return { key: /insufficient|cannot/.test(s) ? 'termIllegalDraw' : 'termIllegal', article: '7.5.5' };
  if (s.includes('checkmate') || s === 'mate') return { key: 'termCheckmate', article: '5.1.1' };
  if (s.includes('resign')) return { key: 'termResignation', article: '5.1.2' };
  if (s.includes('stalemate')) return { key: 'termStalemate', article: '5.2.1' };
  if (s.includes('fivefold')) return { key: 'termFivefold', article: '9.6.1' };
  if (s.includes('seventyfive') || s.includes('75')) return { key: 'termSeventyFive', article: '9.6.2' };
  if (s.includes('threefold') || s.includes('repetition')) return { key: 'termThreefold', article: '9.2' };
  if (s.includes('fifty') || s.includes('50')) return { key: 'termFifty', article: '9.3' };
  if (timeish && /insufficient|cannot|nomat|draw|dead/.test(s)) return { key: 'termTimeoutDraw', article: '6.9' };
  if (timeish) return { key: 'termTimeForfeit', article: '6.9' };
  if (s.includes('dead') || s.includes('insufficient')) return { key: 'termDeadPosition', article: '5.2.2' };
  if (s.includes('agree') || s.includes('mutual')) return { key: 'termAgreement', article: '5.2.3' };
  return null;
}

export function verdict(result: string | null | undefined, termination: string | null | undefined, status: string): Verdict {
  const d = t();
  const cls = classifyTermination(termination);
  let headline: string;
  const r = (result ?? '').replace(/\s/g, '');
  if (status === 'adjourned') headline = d.adjourned;
  else if (cls?.key === 'termAborted' || /abort/i.test(termination ?? '') || status === 'aborted') headline = d.aborted;
  else if (r === '1-0') headline = d.whiteWins;
  else if (r === '0-1') headline = d.blackWins;
  else if (r.startsWith('1/2') || r.startsWith('½')) headline = d.draw;
  else headline = result ?? '';
  const reason = cls ? d[cls.key] : (termination ?? '').replace(/_/g, ' ');
  return { headline, reason, article: cls?.article ?? null };
}

export function verdictText(v: Verdict): string {
  let s = v.headline;
  if (v.reason && v.reason !== v.headline) s += ` — ${v.reason}`;
  if (v.article) s += /^[0-9]/.test(v.article) ? `, ${t().art} ${digits(v.article)}` : `, ${v.article}`;
  return s;
}

/** A server error in the user's language: a known code, with the server's details where they
 * say more (a time control or FEN that cannot be read). */
export function errorText(code: string, message: string, args: Record<string, string> = {}): string {
  const own = (o: Record<string, string>) => (Object.prototype.hasOwnProperty.call(o, code) ? o[code] : undefined);
  const known = own(t().errors) ?? own(pt().errors) ?? own(tt().errors);
  if (!known) return message || code;
  return known.endsWith(':') ? `${known} ${message}` : fmt(known, args);
}
