import { useState, type FormEvent } from 'react';

/**
 * A phone's or gateway's own number, editable in place: saved as typed (smsq reads it as it reads
 * a recipient), blank forgets it. An SMPP submit from this number is sent through this phone.
 */
export function PhoneNumberCell({ row, label, onSave, busy }: { row: { id: number; number: string | null }; label: string; onSave: (number: string | null) => Promise<boolean>; busy: boolean }) {
  const [editing, setEditing] = useState(false);
  const [number, setNumber] = useState(row.number ?? '');
  if (!editing) {
    return (
      <div className="inline-edit">
        <span data-testid="phone-number">{row.number ?? <span className="muted">Not set</span>}</span>
        <button
          type="button"
          className="btn btn-link btn-sm"
          onClick={() => {
            setNumber(row.number ?? '');
            setEditing(true);
          }}
          aria-label={`${row.number ? 'Change' : 'Set'} the number of ${label}`}
        >
          {row.number ? 'Change' : 'Set'}
        </button>
      </div>
    );
  }
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (await onSave(number.trim() === '' ? null : number.trim())) setEditing(false);
  }
  const inputId = `phone-number-${row.id}`;
  return (
    <form className="inline-edit" onSubmit={(event) => void submit(event)}>
      <label className="sr-only" htmlFor={inputId}>
        {`Number of ${label}`}
      </label>
      <input
        id={inputId}
        type="tel"
        inputMode="tel"
        autoComplete="off"
        placeholder="+381641234567"
        value={number}
        onChange={(e) => setNumber(e.target.value)}
        maxLength={64}
        autoFocus
        aria-describedby={`${inputId}-hint`}
        onKeyDown={(e) => e.key === 'Escape' && setEditing(false)}
      />
      <span className="sr-only" id={`${inputId}-hint`}>
        With its country code; leave it empty to forget the number.
      </span>
      <button type="submit" className="btn btn-primary btn-sm" disabled={busy}>
        Save number
      </button>
      <button type="button" className="btn btn-ghost btn-sm" onClick={() => setEditing(false)}>
        Cancel
      </button>
    </form>
  );
}
