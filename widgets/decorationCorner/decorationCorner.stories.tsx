import type { Meta, StoryObj } from '@storybook/react-vite';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/装饰角',
  component: WidgetStory,
  args: widgetArgs('decorationCorner'),
  argTypes: widgetArgTypes('decorationCorner'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据。 */
export const Default: Story = {};

export const BottomRight: Story = { args: { corner: 'bottomRight', color: '#FAD337', stripes: 5 } };
