// 网格吸附 is remembered per user in this browser; a damaged entry falls back to the default.
import { DEFAULT_GRID, loadGridPref, saveGridPref } from './prefs';

beforeEach(() => localStorage.clear());

it('remembers the grid per user', () => {
  saveGridPref('7', { on: true, size: 20 });
  expect(loadGridPref('7')).toEqual({ on: true, size: 20 });
  // another user has their own (the default until they change it)
  expect(loadGridPref('8')).toEqual(DEFAULT_GRID);
  saveGridPref('8', { on: false, size: 5 });
  expect(loadGridPref('7')).toEqual({ on: true, size: 20 });
  expect(loadGridPref('8')).toEqual({ on: false, size: 5 });
});

it('reads a damaged or out-of-range entry as the default or within the range', () => {
  localStorage.setItem('designer-grid:7', '{not json');
  expect(loadGridPref('7')).toEqual(DEFAULT_GRID);
  localStorage.setItem('designer-grid:7', JSON.stringify({ on: 'yes', size: 100000 }));
  expect(loadGridPref('7')).toEqual({ on: false, size: 200 });
});
