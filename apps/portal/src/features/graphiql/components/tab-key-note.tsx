import styles from './tab-key-note.module.css';

/**
 * AX-05: Tab indents inside the Monaco editors, so a keyboard user needs the key that makes Tab
 * move focus instead: Monaco's "Toggle Tab Key Moves Focus" (editor.action.toggleTabFocusMode,
 * included in monaco-core.ts), Ctrl+M, or Ctrl+Shift+M on macOS. Shown by the page itself, with its
 * own small stylesheet, so it is there before the editor's chunk arrives.
 */
export function TabKeyNote() {
  return (
    <p className={styles.note} id="explorer-tab-key-note">
      In the editors, Tab indents. Press <kbd>Ctrl</kbd>+<kbd>M</kbd> (<kbd>Ctrl</kbd>+<kbd>Shift</kbd>+<kbd>M</kbd> on
      macOS) to make Tab move focus out of the editor instead; press it again to indent with Tab.
    </p>
  );
}
