import { useState, type FormEvent, type HTMLAttributes } from 'react';
import { useSearchParams } from 'react-router';
import { buildQuery } from '../api/query';

/** The `?search=` of the page, as its SearchBar last submitted it. */
export function useSearch(): string {
  const [params] = useSearchParams();
  return params.get('search') ?? '';
}

/** A list page's search box: what is submitted becomes the page's `?search=`, from its first page. */
export function SearchBar({
  id,
  placeholder,
  inputMode,
  button = 'btn-primary',
  clearable = false,
}: {
  id: string;
  placeholder: string;
  inputMode?: HTMLAttributes<HTMLInputElement>['inputMode'];
  button?: 'btn-primary' | 'btn-secondary';
  clearable?: boolean;
}) {
  const [, setParams] = useSearchParams();
  const search = useSearch();
  const [draft, setDraft] = useState(search);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setParams(new URLSearchParams(buildQuery({ search: draft }).slice(1)));
  }

  return (
    <form className="search-bar" role="search" onSubmit={submit}>
      <label htmlFor={id} className="sr-only">
        Search
      </label>
      <input id={id} type="search" inputMode={inputMode} placeholder={placeholder} value={draft} onChange={(e) => setDraft(e.target.value)} />
      <button type="submit" className={`btn ${button}`}>
        Search
      </button>
      {clearable && search ? (
        <button
          type="button"
          className="btn btn-ghost"
          onClick={() => {
            setDraft('');
            setParams(new URLSearchParams());
          }}
        >
          Clear
        </button>
      ) : null}
    </form>
  );
}
