import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { Field } from './field';
import { Input } from './input';

describe('Field', () => {
  it('labels its control and announces the error', () => {
    render(
      <Field id="email" label="Email" error="Adresse email invalide">
        <Input />
      </Field>,
    );
    const input = screen.getByLabelText('Email');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('alert')).toHaveTextContent('Adresse email invalide');
    expect(input.getAttribute('aria-describedby')).toContain('email-error');
  });

  it('has no error state when valid', () => {
    render(
      <Field id="name" label="Nom">
        <Input />
      </Field>,
    );
    expect(screen.getByLabelText('Nom')).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
