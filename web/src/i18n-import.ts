// The words of PGN import and of imported games, in the four languages of the UI.

import { lang, type Lang } from './i18n';

const en = {
  importNav: 'Import',
  importTitle: 'Import games from PGN',
  importHelp: 'Paste one or more games in PGN, or choose a file (at most 1 MiB and 100 games).',
  pgnLabel: 'PGN',
  fileLabel: 'PGN file',
  importButton: 'Import',
  imported: 'Imported games',
  importErrors: 'Games not imported',
  errorAt: 'Game {game}, line {line}, column {column}: {message}',
  tooLarge: 'The PGN is larger than 1 MiB; import it in parts.',
  importedGame: 'Imported game',
  importedBy: 'imported by {name}',
  analysisBoard: 'Analysis board',
  downloadPgn: 'Download PGN',
  event: 'Event',
  site: 'Site',
  date: 'Date',
  round: 'Round',
  opening: 'Opening',
  movesTitle: 'Moves',
};
type ImportDict = typeof en;

const cs: ImportDict = {
  importNav: 'Import',
  importTitle: 'Import partií z PGN',
  importHelp: 'Vložte jednu nebo více partií v PGN, nebo vyberte soubor (nejvýše 1 MiB a 100 partií).',
  pgnLabel: 'PGN',
  fileLabel: 'Soubor PGN',
  importButton: 'Importovat',
  imported: 'Importované partie',
  importErrors: 'Neimportované partie',
  errorAt: 'Partie {game}, řádek {line}, sloupec {column}: {message}',
  tooLarge: 'PGN je větší než 1 MiB; importujte ho po částech.',
  importedGame: 'Importovaná partie',
  importedBy: 'importoval(a) {name}',
  analysisBoard: 'Analýza',
  downloadPgn: 'Stáhnout PGN',
  event: 'Turnaj',
  site: 'Místo',
  date: 'Datum',
  round: 'Kolo',
  opening: 'Zahájení',
  movesTitle: 'Tahy',
};

const sk: ImportDict = {
  importNav: 'Import',
  importTitle: 'Import partií z PGN',
  importHelp: 'Vložte jednu alebo viac partií v PGN, alebo vyberte súbor (najviac 1 MiB a 100 partií).',
  pgnLabel: 'PGN',
  fileLabel: 'Súbor PGN',
  importButton: 'Importovať',
  imported: 'Importované partie',
  importErrors: 'Neimportované partie',
  errorAt: 'Partia {game}, riadok {line}, stĺpec {column}: {message}',
  tooLarge: 'PGN je väčšie ako 1 MiB; importujte ho po častiach.',
  importedGame: 'Importovaná partia',
  importedBy: 'importoval(a) {name}',
  analysisBoard: 'Analýza',
  downloadPgn: 'Stiahnuť PGN',
  event: 'Turnaj',
  site: 'Miesto',
  date: 'Dátum',
  round: 'Kolo',
  opening: 'Otvorenie',
  movesTitle: 'Ťahy',
};

const fa: ImportDict = {
  importNav: 'وارد کردن',
  importTitle: 'وارد کردن بازی‌ها از PGN',
  importHelp: 'یک یا چند بازی PGN را بچسبانید یا پرونده‌ای برگزینید (حداکثر ۱ مگابایت و ۱۰۰ بازی).',
  pgnLabel: 'PGN',
  fileLabel: 'پروندهٔ PGN',
  importButton: 'وارد کن',
  imported: 'بازی‌های واردشده',
  importErrors: 'بازی‌هایی که وارد نشدند',
  errorAt: 'بازی {game}، سطر {line}، ستون {column}: {message}',
  tooLarge: 'PGN بزرگ‌تر از ۱ مگابایت است؛ آن را در چند بخش وارد کنید.',
  importedGame: 'بازی واردشده',
  importedBy: 'واردشده به دست {name}',
  analysisBoard: 'صفحهٔ تحلیل',
  downloadPgn: 'دریافت PGN',
  event: 'رویداد',
  site: 'مکان',
  date: 'تاریخ',
  round: 'دور',
  opening: 'گشایش',
  movesTitle: 'حرکت‌ها',
};

const DICTS: Record<Lang, ImportDict> = { en, cs, sk, fa };

/** The words of imports in the current language. */
export function it(): ImportDict {
  return DICTS[lang()];
}

/** `{name}` placeholders filled in. */
export function fill(s: string, vars: Record<string, string | number>): string {
  return s.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m));
}
