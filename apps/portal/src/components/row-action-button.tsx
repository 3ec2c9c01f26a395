import type { ButtonHTMLAttributes } from 'react';
import { Button, type ButtonVariant } from './button.tsx';

interface RowActionButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children'> {
  /** The word on the button: "Revoke", "Edit", "Delete". */
  action: string;
  /** The row it acts on, as a screen reader hears it after the action: "token laptop", "client Weather Widget". */
  target: string;
  variant?: ButtonVariant;
}

/**
 * AX-02: a button that acts on one row of a list. It shows the action ("Revoke") and names the
 * row in text hidden from view, so its accessible name is "Revoke token laptop": a list of
 * buttons read out of context still tells the rows apart, and the visible word starts the name
 * (WCAG 2.5.3 Label in Name, axe's label-content-name-mismatch), which an aria-label would not promise.
 */
export function RowActionButton({ action, target, ...props }: RowActionButtonProps) {
  return (
    <Button size="small" {...props}>
      {action}
      <span className="visually-hidden">{` ${target}`}</span>
    </Button>
  );
}
