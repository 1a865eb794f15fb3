import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/图片',
  component: WidgetStory,
  args: widgetArgs('imageView'),
  argTypes: widgetArgTypes('imageView'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性：内置示例图片。 */
export const Default: Story = {};

/** 包含、圆角与半透明。 */
export const ContainRounded: Story = { args: { url: 'builtin:carousel/slide-2.svg', fitType: 'contain', borderRadius: 24, opacity: 0.7 } };

/** 不支持的地址不会加载，只显示提示。 */
export const Refused: Story = { args: { url: 'javascript:alert(1)' } };
