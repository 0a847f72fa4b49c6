/**
 * How many proposals wait for the signed-in person (GET /v1/inbox/counts), shared by the navigation and the Boards
 * page; a review anywhere refreshes it, so the counts never lag behind the page that changed them.
 */
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from "react";
import { api } from "./api";
import type { InboxCounts } from "./boards-types";

interface Counts {
  counts: InboxCounts | null;
  refresh: () => Promise<void>;
}

const CountsContext = createContext<Counts>({ counts: null, refresh: async () => {} });

export function useInboxCounts(): Counts {
  return useContext(CountsContext);
}

/** Reads the counts when `enabled` (the key may read boards) and again whenever `refreshKey` changes (a navigation). */
export function InboxCountsProvider({
  enabled,
  refreshKey,
  children,
}: {
  enabled: boolean;
  refreshKey: string;
  children: ReactNode;
}): ReactNode {
  const [counts, setCounts] = useState<InboxCounts | null>(null);
  const refresh = useCallback(async () => {
    if (!enabled) return setCounts(null);
    try {
      setCounts(await api<InboxCounts>("GET", "/v1/inbox/counts"));
    } catch {
      // a count is a hint: the pages themselves report errors, and a 401 has signed out already
      setCounts(null);
    }
  }, [enabled]);
  useEffect(() => {
    void refresh();
  }, [refresh, refreshKey]);
  return <CountsContext.Provider value={{ counts, refresh }}>{children}</CountsContext.Provider>;
}

/** The number of open proposals on one board (0 when none, or not known). */
export function pendingOn(counts: InboxCounts | null, boardId: string): number {
  return counts?.boards.find((board) => board.board_id === boardId)?.pending ?? 0;
}
