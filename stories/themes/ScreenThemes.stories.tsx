// One screen of charts (and a title) under each screen theme: the canvas background and every chart's palette,
// text and axis colours follow the theme; the bottom-right line chart keeps its own red, yellow and pink colours (a changed colour wins).
import type { Meta, StoryObj } from '@storybook/react-vite';
import type { CanvasProps } from '../../common/canvas';
import { CanvasStage } from '../../widgets/stage/CanvasStage';
import { createWidget, SCREEN_THEMES, type WidgetEntity } from '../../widgets';

const W = 1200;
const H = 640;

function place(name: string, id: string, left: number, top: number, width: number, height: number, view: Record<string, unknown> = {}): WidgetEntity {
  const w = createWidget(name, { pageId: 'story', id, left, top });
  w.widgetProps.viewProps = { ...w.widgetProps.viewProps, width, height, ...view };
  return w;
}

/** A screen with several chart kinds, one with colours of its own. */
function themedScreen(): WidgetEntity[] {
  return [
    place('lineChart', 'line', 20, 20, 380, 290),
    place('barChart', 'bar', 410, 20, 380, 290),
    place('pieChart', 'pie', 800, 20, 380, 290),
    place('radarChart', 'radar', 20, 330, 380, 290),
    place('gaugeChart', 'gauge', 410, 330, 380, 290),
    place('lineChart', 'custom', 800, 330, 380, 290, { colors: ['#FF4D4F', '#FFC53D'], axisColor: '#FF85C0' }),
  ];
}

function ThemedScreen({ theme, backgroundImage = '' }: { theme: string; backgroundImage?: string }) {
  const canvas: CanvasProps = { width: W, height: H, backgroundColor: '', refreshSeconds: null, theme, backgroundImage };
  return <CanvasStage canvas={canvas} widgets={themedScreen()} />;
}

const meta = {
  title: '大屏/主题',
  component: ThemedScreen,
  args: { theme: SCREEN_THEMES[0].id },
  argTypes: { theme: { name: '主题', control: 'select', options: SCREEN_THEMES.map((t) => t.id) } },
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof ThemedScreen>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 深蓝科技（默认）。 */
export const TechBlue: Story = { name: '深蓝科技', args: { theme: 'techBlue' } };
export const Night: Story = { name: '暗夜', args: { theme: 'night' } };
export const Jade: Story = { name: '青碧', args: { theme: 'jade' } };
export const Violet: Story = { name: '紫罗兰', args: { theme: 'violet' } };
export const Bright: Story = { name: '明亮', args: { theme: 'bright' } };
export const Fresh: Story = { name: '清新浅色', args: { theme: 'fresh' } };
/** A background image from the shipped samples over the theme's colour. */
export const WithBackgroundImage: Story = { name: '背景图片', args: { theme: 'night', backgroundImage: 'builtin:carousel/slide-1.svg' } };
