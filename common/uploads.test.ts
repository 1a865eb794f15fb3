import { checkUpload } from './uploads';

const f = (name: string, mb = 1) => ({ name, size: mb * 1024 * 1024 });

describe('upload rules (spec §5)', () => {
  it('accepts the five image types', () => {
    expect(checkUpload(0, [f('a.jpg'), f('b.JPEG'), f('c.png'), f('d.webp'), f('e.svg')])).toBeNull();
  });
  it('rejects more than 10 files in total', () => {
    expect(checkUpload(8, [f('a.jpg'), f('b.jpg'), f('c.jpg')])).toBe('超过了限制，每次只能上传10个文件。');
    expect(checkUpload(0, Array.from({ length: 11 }, (_, i) => f(`${i}.png`)))).toBe('超过了限制，每次只能上传10个文件。');
  });
  it('rejects other types', () => {
    expect(checkUpload(0, [f('x.gif')])).toBe('只能上传.jpg,.jpeg,.png,.webp,.svg文件!');
    expect(checkUpload(0, [f('noext')])).toBe('只能上传.jpg,.jpeg,.png,.webp,.svg文件!');
  });
  it('rejects files over 50 MB', () => {
    expect(checkUpload(0, [f('big.png', 51)])).toBe('文件大小不能超过50MB!');
    expect(checkUpload(0, [f('ok.png', 50)])).toBeNull();
  });
});
