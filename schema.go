package kubeletcfg

import (
	"io"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// SchemaRequest is what `kubeletcfg schema` is asked: the minor whose JSON
// Schema to print (KubeletVersionSet: given on the command line), or
// Kubeconform, the folder to write every minor's schemas into (Force:
// overwrite files that differ; Verbose: list every file).
type SchemaRequest struct {
	KubeletVersion    string
	KubeletVersionSet bool
	Kubeconform       string
	Force, Verbose    bool
}

// Schema writes to w the JSON Schema of req's minor (kubelets.Minor.Schema), or
// writes the kubeconform schema folder (kubelets.WriteKubeconform) and its summary.
func Schema(w io.Writer, req SchemaRequest) error {
	if req.Kubeconform != "" {
		if req.KubeletVersionSet {
			return optionErrorf("{Kubeconform} writes every supported minor; leave out {KubeletVersion}")
		}
		res, err := kubelets.WriteKubeconform(req.Kubeconform, req.Force)
		if err != nil {
			return err
		}
		return res.WriteText(w, req.Kubeconform, req.Verbose)
	}
	if req.Force {
		return optionErrorf("{Force} only applies with {Kubeconform}")
	}
	m, err := LookupMinor(req.KubeletVersion, "kubeletcfg schema --kubeconform writes every minor's schema")
	if err != nil {
		return err
	}
	raw, err := m.Schema()
	if err != nil {
		return err
	}
	_, err = w.Write(raw)
	return err
}
