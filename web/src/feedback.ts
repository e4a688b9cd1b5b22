// What the player hears: an aria-live region for screen readers (Appendix D: every move is
// announced), optional speech through speechSynthesis, and short sounds made with WebAudio.

import { lang } from './i18n';

export interface Prefs {
  speak: boolean;
  appendixD: boolean;
  sounds: boolean;
  figurines: boolean;
}

const DEFAULTS: Prefs = { speak: false, appendixD: false, sounds: true, figurines: false };

export function loadPrefs(): Prefs {
  try {
    return { ...DEFAULTS, ...(JSON.parse(localStorage.getItem('arbiter.prefs') ?? '{}') as Partial<Prefs>) };
  } catch {
    return { ...DEFAULTS };
  }
}

export function savePrefs(p: Prefs): void {
  try {
    localStorage.setItem('arbiter.prefs', JSON.stringify(p));
  } catch {
    /* ignore */
  }
}

let live: HTMLElement | null = null;
let pending: string[] = [];
let flush: number | undefined;

/** The polite live region every announcement goes to. */
export function liveRegion(): HTMLElement {
  if (!live) {
    live = document.createElement('div');
    live.className = 'sr-only';
    live.setAttribute('aria-live', 'polite');
    live.setAttribute('role', 'status');
    live.setAttribute('data-testid', 'announce');
    document.body.appendChild(live);
  }
  return live;
}

const SPEECH_LANG: Record<string, string> = { en: 'en-GB', cs: 'cs-CZ', sk: 'sk-SK', fa: 'fa-IR' };

/** Says something: always to the live region, and aloud if the player chose so. Appendix D
 * words are German, so they are spoken with a German voice. */
export function announce(text: string, prefs: Prefs, german = false): void {
  const region = liveRegion();
  // Re-setting the text makes screen readers read it even if it repeats; what comes together
  // (a mating move and the result) is read together.
  pending.push(text);
  region.textContent = '';
  window.clearTimeout(flush);
  flush = window.setTimeout(() => {
    region.textContent = pending.join(' ');
    pending = [];
  }, 30);
  if (prefs.speak && 'speechSynthesis' in window) {
    try {
      const u = new SpeechSynthesisUtterance(text);
      u.lang = german ? 'de-DE' : SPEECH_LANG[lang()] ?? 'en-GB';
      window.speechSynthesis.speak(u);
    } catch {
      /* no voice */
    }
  }
}

let ctx: AudioContext | null = null;

export type Sound = 'move' | 'capture' | 'notify' | 'low';

/** A short tone; no audio files are needed. */
export function sound(kind: Sound, prefs: Prefs): void {
  if (!prefs.sounds) return;
  try {
    ctx ??= new AudioContext();
    const now = ctx.currentTime;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    const spec: Record<Sound, [number, number, OscillatorType]> = {
      move: [520, 0.07, 'triangle'],
      capture: [300, 0.11, 'square'],
      notify: [880, 0.25, 'sine'],
      low: [1200, 0.08, 'sine'],
    };
    const [freq, dur, type] = spec[kind];
    osc.type = type;
    osc.frequency.setValueAtTime(freq, now);
    gain.gain.setValueAtTime(0.15, now);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + dur);
    osc.connect(gain).connect(ctx.destination);
    osc.start(now);
    osc.stop(now + dur + 0.02);
  } catch {
    /* audio not allowed yet */
  }
}
