// The page's entry point: the lobby at "/", a table at "/tables/{board}".
import { installSprite } from "./cards.js";
import { showLobby } from "./lobby.js";
import { showTable } from "./table.js";

installSprite();
const root = document.getElementById("app");
const match = /^\/tables\/(\d+)\/?$/.exec(location.pathname);
if (match) {
  showTable(root, Number(match[1]));
} else {
  showLobby(root);
}
