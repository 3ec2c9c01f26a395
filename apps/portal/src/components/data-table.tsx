import type { ReactNode } from 'react';
import styles from './data-table.module.css';

/**
 * A list as a table on wide screens and as cards on phones. Each `<td>` gives its column
 * name in `data-label` (empty for the actions cell) for the card layout.
 */
export function DataTable({ caption, columns, children }: { caption: string; columns: string[]; children: ReactNode }) {
  return (
    <div className={styles.surface}>
      <table className={styles.table}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column === '' ? <span className="visually-hidden">Actions</span> : column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
