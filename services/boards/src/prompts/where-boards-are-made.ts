/**
 * No tool creates a board (the seeds' tools work inside boards people made), so an agent whose list_boards is
 * empty must send its person to the web console. The console's address is named only when the deployment says
 * where it is (BANCADA_PUBLIC_URL): a guessed host would be wrong behind a proxy or on another machine.
 */

/** The console page that lists boards and has "New board", or undefined when the deployment did not say where it is. */
function boardsPageOf(consoleUrl: string | undefined): string | undefined {
  return consoleUrl ? `${consoleUrl.replace(/\/+$/, "")}/#/boards` : undefined;
}

export function whereBoardsAreMade(consoleUrl: string | undefined): string {
  const page = boardsPageOf(consoleUrl);
  const where = page ? `in the web console at ${page} ("New board")` : 'in the web console (its Boards page, "New board")';
  return `Boards are created by people ${where}, not by these tools; a board's owner adds members there too.`;
}
