package kubelets

import kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"

// RoundTripJSON and RoundTripReflect expose the two round trips to the external
// test that compares them on decoded files.
func (m *Minor) RoundTripJSON(kc *kubeletv1beta1.KubeletConfiguration) (*kubeletv1beta1.KubeletConfiguration, error) {
	return m.roundTripJSON(kc)
}

func (m *Minor) RoundTripReflect(kc *kubeletv1beta1.KubeletConfiguration) (*kubeletv1beta1.KubeletConfiguration, bool) {
	return m.roundTripReflect(kc)
}

func (m *Minor) RoundTripPlanErr() error {
	_, err := m.roundTripPlan()
	return err
}

// PruneByWalk is Prune by walking the value, without the plan.
func (m *Minor) PruneByWalk(kc *kubeletv1beta1.KubeletConfiguration) {
	if m != Newest() {
		pruneValue(reflectValue(kc), m.Fields())
	}
}
