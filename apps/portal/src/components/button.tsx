import type { ButtonHTMLAttributes } from 'react';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: 'normal' | 'small';
}

/** The portal's one button; the look comes from the `.button` rules in app/global.css. */
export function Button({ variant = 'secondary', size = 'normal', className, type = 'button', ...props }: ButtonProps) {
  const classes = ['button', `button--${variant}`, size === 'small' ? 'button--small' : '', className ?? '']
    .filter(Boolean)
    .join(' ');
  return <button type={type} className={classes} {...props} />;
}
