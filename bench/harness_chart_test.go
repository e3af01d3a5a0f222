package bench

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"os"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// Chart geometry and colours.
const (
	chartW, chartH = 960, 440
	plotL, plotR   = 70, chartW - 20
	plotT, plotB   = 50, chartH - 50
)

var (
	colorText = color.RGBA{0x22, 0x22, 0x22, 0xff}
	colorGrid = color.RGBA{0xdd, 0xdd, 0xdd, 0xff}
	colorOne  = color.RGBA{0x55, 0x55, 0x55, 0xff}
	// one colour per DuckDB layout, in the order of chartSeries.
	seriesColors = []color.RGBA{{0x3b, 0x6e, 0xc4, 0xff}, {0xe0, 0x8a, 0x2c, 0xff}}
	chartSeries  = []string{engineDuck, engineHive}
)

// writeRatioChart draws lakesql's median time over DuckDB's per query as a
// bar chart on a log2 axis, where 1 (same speed) is the reference line and
// bars above it mean lakesql is slower.
func writeRatioChart(path string, results []queryResult) error {
	img := image.NewRGBA(image.Rect(0, 0, chartW, chartH))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	lo, hi := ratioBounds(results)
	y := func(ratio float64) int {
		return plotB - int(math.Round((math.Log2(ratio)-lo)/(hi-lo)*float64(plotB-plotT)))
	}
	for e := lo; e <= hi; e++ {
		c := colorGrid
		if e == 0 {
			c = colorOne
		}
		fillRect(img, plotL, y(math.Exp2(e)), plotR, y(math.Exp2(e))+1, c)
		drawText(img, 8, y(math.Exp2(e))+4, ratioLabel(math.Exp2(e)))
	}
	slot := (plotR - plotL) / max(1, len(results))
	barW := slot / (len(chartSeries) + 1)
	for i, r := range results {
		x0 := plotL + i*slot + barW/2
		for s, engine := range chartSeries {
			if r.median[engine] == 0 || r.median[engineLake] == 0 {
				continue
			}
			ratio := float64(r.median[engineLake]) / float64(r.median[engine])
			top, base := y(ratio), y(1)
			fillRect(img, x0+s*barW, min(top, base), x0+(s+1)*barW-2, max(top, base), seriesColors[s])
		}
		drawText(img, x0, plotB+18, fmt.Sprintf("Q%d", r.id))
	}
	drawText(img, plotL, 22, "lakesql median time / DuckDB median time (log scale; above 1x = lakesql slower)")
	for s, engine := range chartSeries {
		x := plotL + s*200
		fillRect(img, x, chartH-22, x+12, chartH-10, seriesColors[s])
		drawText(img, x+18, chartH-11, "vs "+engine)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// ratioBounds is the log2 range of the axis: whole powers of two that
// include every ratio and at least 0.5x to 2x.
func ratioBounds(results []queryResult) (lo, hi float64) {
	lo, hi = -1, 1
	for _, r := range results {
		for _, engine := range chartSeries {
			if r.median[engine] > 0 && r.median[engineLake] > 0 {
				e := math.Log2(float64(r.median[engineLake]) / float64(r.median[engine]))
				lo, hi = math.Min(lo, math.Floor(e)), math.Max(hi, math.Ceil(e))
			}
		}
	}
	return lo, hi
}

func ratioLabel(r float64) string {
	if r >= 1 {
		return fmt.Sprintf("%gx", r)
	}
	return fmt.Sprintf("1/%gx", 1/r)
}

func fillRect(img *image.RGBA, x0, y0, x1, y1 int, c color.Color) {
	draw.Draw(img, image.Rect(x0, y0, x1, y1), image.NewUniform(c), image.Point{}, draw.Src)
}

func drawText(img *image.RGBA, x, y int, s string) {
	d := font.Drawer{Dst: img, Src: image.NewUniform(colorText), Face: basicfont.Face7x13, Dot: fixed.P(x, y)}
	d.DrawString(s)
}
