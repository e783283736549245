// The table's live connection: a WebSocket that resumes where it left off (after=N).

const RETRY_MS = [500, 1000, 2000, 4000, 8000];

export class LiveTable {
  /** onMessage(msg) gets every message; onStatus("live" | "reconnecting") the link's state. */
  constructor(board, onMessage, onStatus) {
    this.board = board;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.after = 0;
    this.failures = 0;
    this.socket = null;
    this.timer = null;
    window.addEventListener("online", () => this.reconnectNow());
  }

  start(after) {
    this.after = after;
    this.connect();
  }

  get isOpen() {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  connect() {
    clearTimeout(this.timer);
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const url = `${scheme}://${location.host}/api/tables/${this.board}/live?after=${this.after}`;
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.onopen = () => {
      this.failures = 0;
      this.onStatus("live");
    };
    socket.onmessage = (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return; // not ours to show
      }
      if (typeof msg.n === "number") this.after = Math.max(this.after, msg.n);
      this.onMessage(msg);
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.onStatus("reconnecting");
      const wait = RETRY_MS[Math.min(this.failures, RETRY_MS.length - 1)];
      this.failures += 1;
      this.timer = setTimeout(() => this.connect(), wait);
    };
  }

  reconnectNow() {
    if (this.isOpen) return;
    this.socket?.close();
    this.connect();
  }
}
