package main

import (
	"fmt"
	"os"

	"github.com/blueprints-companion/blueprints/configs"
	"github.com/blueprints-companion/blueprints/engine"
	"github.com/spf13/viper"
)

// catalogue loads the blueprint catalogue named by the "catalogue" setting,
// or the embedded default.
func catalogue(v *viper.Viper) (engine.Catalogue, error) {
	path := v.GetString("catalogue")
	data := configs.Blueprints
	if path != "" {
		var err error
		if data, err = os.ReadFile(path); err != nil {
			return engine.Catalogue{}, &exitError{code: 2, msg: fmt.Sprintf("blueprints: catalogue: %v", err)}
		}
	}
	cat, err := engine.ParseCatalogue(data)
	if err != nil {
		name := path
		if name == "" {
			name = "embedded configs/blueprints.json"
		}
		return cat, &exitError{code: 2, msg: fmt.Sprintf("blueprints: catalogue %s: %v", name, err)}
	}
	return cat, nil
}

// victoryPoints reads vp.gold, vp.silver, vp.bronze and vp.prize.
func victoryPoints(v *viper.Viper) (engine.VictoryPoints, error) {
	vp := engine.DefaultVP
	for key, dst := range map[string]*int{"vp.gold": &vp.Gold, "vp.silver": &vp.Silver, "vp.bronze": &vp.Bronze, "vp.prize": &vp.Prize} {
		if !v.IsSet(key) {
			continue
		}
		n, err := castInt(v.Get(key))
		if err != nil || n < 0 || n > 99 {
			return vp, &exitError{code: 2, msg: fmt.Sprintf("blueprints: setting %s: %v is not a number of victory points (0-99)", key, v.Get(key))}
		}
		*dst = n
	}
	return vp, nil
}

func castInt(x any) (int, error) {
	switch t := x.(type) {
	case int:
		return t, nil
	case int64:
		return int(t), nil
	case float64:
		if t == float64(int(t)) {
			return int(t), nil
		}
	case string:
		var n int
		if _, err := fmt.Sscanf(t, "%d", &n); err == nil && fmt.Sprint(n) == t {
			return n, nil
		}
	}
	return 0, fmt.Errorf("not an integer: %v", x)
}
