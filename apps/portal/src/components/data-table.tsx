import type { ReactNode, Ref } from 'react';
import styles from './data-table.module.css';

/**
 * A list as a table on wide screens and as cards on phones. Each `<td>` gives its column
 * name in `data-label` (empty for the actions cell) for the card layout. `ref` is the element
 * useFocusAfterRevoke looks for rows in (AX-03).
 */
export function DataTable({
  caption,
  columns,
  children,
  ref,
}: {
  caption: string;
  columns: string[];
  children: ReactNode;
  ref?: Ref<HTMLDivElement>;
}) {
  return (
    <div ref={ref} className={styles.surface}>
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
