import { useState } from 'react';

/**
 * True from the first time `open` is true on. A lazily loaded dialog mounts then, and stays mounted: it closes, and
 * opens again, exactly as it did when it was part of the screen's code (decision 017).
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return open || opened;
}
