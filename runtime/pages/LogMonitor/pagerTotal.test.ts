import { describe, expect, it } from 'vitest';
import { pagerTotal } from '.';

describe('log monitor pager total', () => {
  it('is the counted total once known; before that the lines known with a 「+」, never an invented number', () => {
    // page 1 of 50 with more to come: 51 is a lower bound, not a total
    expect(pagerTotal({ total: 51, more: true, partial: false }, null)).toEqual({ total: 51, text: '共 51+ 条' });
    expect(pagerTotal({ total: 51, more: true, partial: false }, { total: 4213, exact: true })).toEqual({ total: 4213, text: '共 4213 条' });
    // the count ran out of time: what it saw, still with a 「+」
    expect(pagerTotal({ total: 51, more: true, partial: false }, { total: 90000, exact: false })).toEqual({ total: 90000, text: '共 90000+ 条' });
    // the page reached the oldest line: its total is exact without a count
    expect(pagerTotal({ total: 7, more: false, partial: false }, null)).toEqual({ total: 7, text: '共 7 条' });
    // …unless the search ran out of time before that
    expect(pagerTotal({ total: 3, more: false, partial: true }, null)).toEqual({ total: 3, text: '共 3+ 条' });
    // lines written since the count: it is only a lower bound then
    expect(pagerTotal({ total: 120, more: true, partial: false }, { total: 100, exact: true })).toEqual({ total: 120, text: '共 120+ 条' });
    expect(pagerTotal(null, null)).toEqual({ total: 0, text: '' });
  });
});
