// The lobby's WebSocket (`/api/lobby/ws`): every message goes to one handler; a lost
// connection comes back by itself (the server starts again with a whole `lobby` message, and
// keeps a player's seeks and pool place for 30 s meanwhile). A tournament's socket works the same
// way: `path` says which (a function, so that a reconnection can say what it has seen).

export class LobbySocket {
  private ws: WebSocket | null = null;
  private closed = false;
  private retry = 0;
  private timer: number | undefined;
  private pinger: number | undefined;

  constructor(
    private onMessage: (msg: Record<string, unknown>) => void,
    private onStatus: (connected: boolean) => void = () => {},
    private path: () => string = () => '/api/lobby/ws',
  ) {
    this.open();
  }

  private open(): void {
    if (this.closed) return;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}${this.path()}`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.onStatus(true);
      // Keeps idle connections from being cut by proxies.
      window.clearInterval(this.pinger);
      this.pinger = window.setInterval(() => {
        if (ws.readyState === WebSocket.OPEN) ws.send('{"type":"ping"}');
      }, 25000);
    };
    ws.onmessage = (m) => {
      try {
        const msg = JSON.parse(String(m.data)) as Record<string, unknown>;
        if (msg && typeof msg === 'object' && msg.type !== 'pong') this.onMessage(msg);
      } catch {
        /* not JSON: ignore */
      }
    };
    ws.onclose = () => {
      this.ws = null;
      window.clearInterval(this.pinger);
      if (this.closed) return;
      this.onStatus(false);
      const delay = Math.min(5000, 250 * 2 ** this.retry++);
      this.timer = window.setTimeout(() => this.open(), delay);
    };
    ws.onerror = () => ws.close();
  }

  close(): void {
    this.closed = true;
    window.clearInterval(this.pinger);
    window.clearTimeout(this.timer);
    this.ws?.close();
  }
}
