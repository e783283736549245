// Talking to the server: JSON over fetch, and refused requests turned into plain sentences.

/** A refused request: `kind` is the API's error word, `message` a sentence for the player. */
export class ApiError extends Error {
  constructor(status, body) {
    super(messageOf(status, body));
    this.status = status;
    this.kind = body?.error ?? "error";
    this.nextMove = body?.next_move ?? null;
  }
}

function messageOf(status, body) {
  if (body && typeof body.message === "string" && body.message) return body.message;
  if (status === 401) return "Please sign in first.";
  if (status === 403) return "You are not allowed to do that here.";
  if (status === 404) return "There is no such table or player.";
  if (status === 409) return "The table has moved on since your screen was drawn.";
  if (status === 429) return "Too many attempts; please wait a little and try again.";
  if (status === 0) return "The server cannot be reached; check your connection.";
  return `The server could not do that (error ${status}).`;
}

/** `api("POST", "/api/tables", {...})` -> the answer's JSON; throws ApiError when refused. */
export async function api(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, null);
  }
  if (response.status === 204) return null;
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null; // an answer that is not JSON (a proxy's error page): the status says enough
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

/** The signed-in user's id, or null. */
export async function whoAmI() {
  try {
    return (await api("GET", "/api/me")).userid;
  } catch {
    return null;
  }
}

export function escapeHtml(text) {
  return String(text ?? "").replace(/[&<>"']/g, (ch) => ({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;",
  })[ch]);
}
