import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { DueDate, StateBadge } from './device-values';

describe('DueDate', () => {
  it('says past and soon in words, not only in colour', () => {
    render(
      <>
        <DueDate day="2026-05-01" today="2026-05-10" />
        <DueDate day="2026-05-20" today="2026-05-10" />
        <DueDate day="2027-05-20" today="2026-05-10" />
        <DueDate day={null} today="2026-05-10" />
      </>,
    );
    expect(screen.getByText('01/05/2026').parentElement).toHaveTextContent('01/05/2026dépassée');
    expect(screen.getByText('20/05/2026').parentElement).toHaveTextContent('dans moins de 30 jours');
    expect(screen.getByText('20/05/2027').parentElement).toHaveTextContent(/^20\/05\/2027$/);
    expect(screen.getByText('—')).toBeInTheDocument();
  });

  it('shows the Géo’DAE state', () => {
    render(<StateBadge state="Hors service" />);
    expect(screen.getByText('Hors service')).toBeInTheDocument();
  });
});
