import type { Meta, StoryObj } from '@storybook/react-vite';
import { ChartRendererContext } from '../charts/echarts';
import { WidgetStory, widgetArgs, widgetArgTypes, type WidgetStoryArgs } from '../../stories/widgetStory';

const meta = {
  title: '部件/词云',
  component: WidgetStory,
  args: widgetArgs('wordCloud'),
  argTypes: widgetArgTypes('wordCloud'),
} satisfies Meta<WidgetStoryArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** 默认属性与示例数据（数据平台热词）。 */
export const Default: Story = {};

/** 星形、可旋转。 */
export const StarRotated: Story = { args: { width: 360, height: 360, shape: 'star', rotation: 90, maxFontSize: 32 } };

/** 设计器画布上的样子：整张图画成一张 SVG 图片（词语排好后再画）。 */
export const AsPicture: Story = {
  decorators: [
    (Story) => (
      <ChartRendererContext.Provider value="image">
        <Story />
      </ChartRendererContext.Provider>
    ),
  ],
};
